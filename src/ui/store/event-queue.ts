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
 * Collects live events and hands them over in one batch per frame. A burst (an import writing thousands of
 * sessions, the deltas of several parts one outbox flush posts) then costs one store update and one render, not one
 * per event. Streamed text is not held back here: every worker's outbox (worker/event-outbox.ts) already posts a
 * part's deltas at most ten times a second (four for a stream faster than anyone reads), which is what cuts the
 * cost that matters (a message is a task and a structured clone on every tab); a second interval here only added
 * timers and could delay a batch by a frame.
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
