import type { SessionEvent } from '../../core/event'

export interface Scheduler {
  /** Runs `flush` soon, once; returns a canceller. */
  (flush: () => void): () => void
}

/**
 * Next animation frame, or a short timer when the tab is hidden (frames stop there, and events must not pile up
 * unapplied until the user comes back).
 */
export const frameScheduler: Scheduler = (flush) => {
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

/**
 * Collects live events and hands them over in one batch per frame. A burst (an import writing thousands of
 * sessions, a fast stream of deltas) then costs one store update and one render, not one per event.
 */
export function makeEventQueue(apply: (events: SessionEvent[]) => void, schedule: Scheduler = frameScheduler) {
  let pending: SessionEvent[] = []
  let cancel: (() => void) | undefined
  const flush = () => {
    cancel = undefined
    const events = pending
    pending = []
    if (events.length) apply(events)
  }
  return {
    push(event: SessionEvent) {
      pending.push(event)
      cancel ??= schedule(flush)
    },
    /** Applies whatever is pending now (before reading state that must include it). */
    flush() {
      cancel?.()
      flush()
    },
    dispose() {
      cancel?.()
      cancel = undefined
      pending = []
    },
  }
}
