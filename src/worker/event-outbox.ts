import type { EventOf, SessionEvent } from '../core/event'

export const DELTA_WINDOW_MS = 16

/**
 * Coalesces text deltas into about one message per frame before they cross to the UI, keeping order with every
 * other event (a non-delta event first sends the deltas queued before it). A fast stream (thousands of tokens a
 * second) then costs the UI tens of messages a second, not thousands.
 */
export function makeEventOutbox(post: (event: SessionEvent) => void, windowMs = DELTA_WINDOW_MS) {
  let pending: EventOf<'part.delta'>[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const deltas = pending
    pending = []
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
      timer ??= setTimeout(flush, windowMs)
    },
    flush,
  }
}
