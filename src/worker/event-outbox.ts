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
 * Coalesces text deltas before they cross to the UI, keeping order with every other event (a non-delta event first
 * sends the deltas queued before it, so the end of a reply, its status or an error is never held back). A fast
 * stream (thousands of tokens a second) then costs each tab about ten messages a second, not thousands.
 */
export function makeEventOutbox(
  post: (event: SessionEvent) => void,
  { windowMs = DELTA_WINDOW_MS, intervalMs = DELTA_INTERVAL_MS } = {},
  now: () => number = () => performance.now(),
) {
  let pending: EventOf<'part.delta'>[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let deltasPostedAt = -Infinity

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const deltas = pending
    pending = []
    if (deltas.length) deltasPostedAt = now()
    for (const delta of deltas) post(delta)
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
      timer ??= setTimeout(flush, Math.max(windowMs, deltasPostedAt + intervalMs - now()))
    },
    flush,
  }
}
