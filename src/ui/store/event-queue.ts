import type { SessionEvent } from '../../core/event'

export interface Scheduler {
  /** Runs `flush` soon, once, and not before `delayMs` have passed; returns a canceller. */
  (flush: () => void, delayMs?: number): () => void
}

/**
 * Next animation frame, or a short timer when the tab is hidden (frames stop there, and events must not pile up
 * unapplied until the user comes back).
 */
function nextFrame(flush: () => void): () => void {
  let done = false
  const run = () => {
    if (done) return
    done = true
    if (frames) cancelAnimationFrame(frame)
    clearTimeout(timer)
    flush()
  }
  const frames = typeof requestAnimationFrame === 'function'
  const frame = frames ? requestAnimationFrame(run) : 0
  const timer = setTimeout(run, frames ? 100 : 0)
  return () => {
    done = true
    if (frames) cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/** The first animation frame after `delayMs`. */
export const frameScheduler: Scheduler = (flush, delayMs = 0) => {
  if (delayMs <= 0) return nextFrame(flush)
  let cancelFrame: (() => void) | undefined
  const timer = setTimeout(() => (cancelFrame = nextFrame(flush)), delayMs)
  return () => {
    clearTimeout(timer)
    cancelFrame?.()
  }
}

/**
 * Streamed text is applied at most this often: ten times a second, text still visibly flows, and a fast reply
 * (~50 deltas a frame at 3,000/s) costs a tenth of the renders it would cost at every frame, which is what its
 * main-thread time was (style, layout and paint of the growing row at every frame, then the scroll that follows it).
 */
export const STREAM_INTERVAL_MS = 100

/**
 * Collects live events and hands them over in one batch per frame. A burst (an import writing thousands of
 * sessions, a fast stream of deltas) then costs one store update and one render, not one per event. Text deltas
 * alone wait until STREAM_INTERVAL_MS after the last batch that applied some (a delta after a pause shows in the
 * next frame); any other event (the part's end, the turn's status) takes everything pending in the next frame, so
 * the end of a reply is never held back.
 */
export function makeEventQueue(
  apply: (events: SessionEvent[]) => void,
  schedule: Scheduler = frameScheduler,
  now: () => number = () => performance.now(),
) {
  let pending: SessionEvent[] = []
  let cancel: (() => void) | undefined
  /** Whether the scheduled flush waits out the stream interval (so another event may call it sooner). */
  let held = false
  let deltasAppliedAt = -Infinity
  const flush = () => {
    cancel = undefined
    held = false
    const events = pending
    pending = []
    if (events.some((event) => event.type === 'part.delta')) deltasAppliedAt = now()
    if (events.length) apply(events)
  }
  return {
    push(event: SessionEvent) {
      pending.push(event)
      if (event.type !== 'part.delta') {
        if (held) cancel?.()
        if (held || !cancel) cancel = schedule(flush)
        held = false
      } else if (!cancel) {
        const wait = deltasAppliedAt + STREAM_INTERVAL_MS - now()
        held = wait > 0
        cancel = schedule(flush, held ? wait : 0)
      }
    },
    /** Applies whatever is pending now (before reading state that must include it). */
    flush() {
      cancel?.()
      flush()
    },
    dispose() {
      cancel?.()
      cancel = undefined
      held = false
      pending = []
    },
  }
}
