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
 * While events keep coming, the store is updated (and the conversation rendered) at most this often. A tool loop
 * finishes a step every ~20 ms, each a card added, run and finished: a render per frame cost the page 12–15 ms of
 * style, layout and paint per step on a 2-core machine, a core that the worker running the loop then did not have
 * (issue 32). Twenty updates a second still look live; text streams at the worker's pace (ten a second), unchanged.
 */
export const UPDATE_INTERVAL_MS = 50

/**
 * Collects live events and hands them over in one batch per frame, at most one every UPDATE_INTERVAL_MS; the first
 * after a quiet spell goes at the next frame. A burst (an import writing thousands of sessions, the steps of a fast
 * tool loop) then costs one store update and one render, not one per event. Streamed text is not held back: every
 * worker's outbox (worker/event-outbox.ts) already posts a part's deltas at most ten times a second, which is what
 * cuts the cost that matters (a message is a task and a structured clone on every tab).
 */
export function makeEventQueue(
  apply: (events: SessionEvent[]) => void,
  schedule: Scheduler = frameScheduler,
  { intervalMs = UPDATE_INTERVAL_MS, now = () => performance.now() }: { intervalMs?: number; now?: () => number } = {},
) {
  let pending: SessionEvent[] = []
  let cancel: (() => void) | undefined
  let appliedAt = -Infinity
  const flush = () => {
    cancel = undefined
    const events = pending
    pending = []
    if (!events.length) return
    appliedAt = now()
    apply(events)
  }
  return {
    push(event: SessionEvent) {
      pending.push(event)
      cancel ??= schedule(flush, Math.max(0, appliedAt + intervalMs - now()))
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
