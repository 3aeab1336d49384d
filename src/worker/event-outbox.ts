import type { SessionEvent } from '../core/event'

/**
 * Events of one burst go out as one message: the first waits this long for the rest. A tool step writes and
 * announces five or six rows within a few milliseconds (the call, its run, its result, the step's end and the next
 * step's start); one message each cost the worker a post, the browser a routing and every tab's main thread a task
 * and a structured clone, on every step (issue 32).
 */
export const EVENT_WINDOW_MS = 16
/**
 * While a part streams, its deltas cross to the UI at most this often. Each message costs every tab's main thread
 * a structured-clone and a task (~0.5 ms on a loaded machine), and the tab renders at the next frame whatever
 * arrived (ui/store/event-queue.ts), so this interval alone paces how often a streaming reply is re-rendered.
 */
export const DELTA_INTERVAL_MS = 100
/**
 * A stream faster than anyone reads (a flush carrying this many characters or more: ~6,000 a second, ~1,500 tokens)
 * is sent at FAST_INTERVAL_MS instead. Each update costs the page about the same whatever it carries (style,
 * layout, paint of the growing row: ~8–10 ms on a slow 2-core machine), so at that pace ten updates a second
 * would spend a third of a core to show twenty lines at a time; a model at a reading pace keeps ten.
 */
export const FAST_FLUSH_CHARS = 600
export const FAST_INTERVAL_MS = 250

const IMMEDIATE: ReadonlySet<SessionEvent['type']> = new Set(['session.status', 'workspace.changed'])

/**
 * Batches events before they cross to the UI, in the order they were emitted: any event waits at most
 * EVENT_WINDOW_MS for the others of its burst, and text deltas are merged per part and paced (DELTA_INTERVAL_MS, or
 * FAST_INTERVAL_MS for a fast stream). An event that is not a delta takes the deltas queued before it along, so the
 * end of a reply or an error is never held back behind the pacing, and a session's status or a file's change goes
 * at once. A fast stream then costs each tab
 * about four messages a second, not thousands, and a tool step one or two, not six.
 */
export function makeEventOutbox(
  post: (events: SessionEvent[]) => void,
  { windowMs = EVENT_WINDOW_MS, intervalMs = DELTA_INTERVAL_MS, fastChars = FAST_FLUSH_CHARS, fastIntervalMs = FAST_INTERVAL_MS } = {},
  now: () => number = () => performance.now(),
) {
  let queued: SessionEvent[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let due = Infinity
  let deltasPostedAt = -Infinity
  // The characters the last flush of deltas carried: what tells a fast stream from one at a reading pace.
  let lastFlushChars = 0

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    due = Infinity
    const events = queued
    queued = []
    if (!events.length) return
    let chars = -1
    for (const event of events) if (event.type === 'part.delta') chars = Math.max(chars, 0) + event.delta.length
    if (chars >= 0) {
      deltasPostedAt = now()
      lastFlushChars = chars
    }
    post(events)
  }
  /** Posts what is queued within `ms`, or sooner if a flush is already due sooner. */
  const flushWithin = (ms: number) => {
    const at = now() + ms
    if (at >= due) return
    if (timer !== undefined) clearTimeout(timer)
    due = at
    timer = setTimeout(flush, ms)
  }

  return {
    emit(event: SessionEvent) {
      if (event.type !== 'part.delta') {
        queued.push(event)
        // A status (busy, retrying, idle) is what the user waits on, and what a tab that watches a session acts on;
        // a file changing is what a file tree lists again, racing its listing against the next change: both go at
        // once, with what is queued before them.
        if (IMMEDIATE.has(event.type)) flush()
        else flushWithin(windowMs)
        return
      }
      const last = queued[queued.length - 1]
      // `last` is the outbox's own copy (below), so appending to it changes nothing the emitter holds.
      if (last?.type === 'part.delta' && last.partID === event.partID) last.delta += event.delta
      else queued.push({ ...event })
      // A queued event that is not a delta already set an earlier flush; the deltas go with it.
      const interval = lastFlushChars >= fastChars ? fastIntervalMs : intervalMs
      flushWithin(Math.max(windowMs, deltasPostedAt + interval - now()))
    },
    flush,
  }
}
