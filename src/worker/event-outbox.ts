import type { EventOf, SessionEvent } from '../core/event'

/** A delta after a quiet spell waits this long, so the burst it starts goes out as one message. */
export const DELTA_WINDOW_MS = 16
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

/**
 * Coalesces text deltas before they cross to the UI, keeping order with every other event (a non-delta event first
 * sends the deltas queued before it, so the end of a reply, its status or an error is never held back). A fast
 * stream (thousands of tokens a second) then costs each tab about four messages a second, not thousands.
 */
export function makeEventOutbox(
  post: (event: SessionEvent) => void,
  { windowMs = DELTA_WINDOW_MS, intervalMs = DELTA_INTERVAL_MS, fastChars = FAST_FLUSH_CHARS, fastIntervalMs = FAST_INTERVAL_MS } = {},
  now: () => number = () => performance.now(),
) {
  let pending: EventOf<'part.delta'>[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let deltasPostedAt = -Infinity
  // The characters the last flush carried: what tells a fast stream from one at a reading pace.
  let lastFlushChars = 0

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const deltas = pending
    pending = []
    if (!deltas.length) return
    deltasPostedAt = now()
    lastFlushChars = 0
    for (const delta of deltas) {
      lastFlushChars += delta.delta.length
      post(delta)
    }
  }

  return {
    emit(event: SessionEvent) {
      if (event.type !== 'part.delta') {
        flush()
        post(event)
        return
      }
      const last = pending[pending.length - 1]
      if (last && last.partID === event.partID) last.delta += event.delta
      else pending.push({ ...event })
      const interval = lastFlushChars >= fastChars ? fastIntervalMs : intervalMs
      timer ??= setTimeout(flush, Math.max(windowMs, deltasPostedAt + interval - now()))
    },
    flush,
  }
}
