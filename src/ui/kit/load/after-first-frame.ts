/** What `afterFirstFrame` waits on; the browser's by default, fakes in tests. */
export interface FrameScheduler {
  frame(run: () => void): number
  cancelFrame(handle: number): void
  task(run: () => void, ms: number): ReturnType<typeof setTimeout>
  cancelTask(handle: ReturnType<typeof setTimeout>): void
}

const browser: FrameScheduler = {
  frame: (run) => requestAnimationFrame(run),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
  task: (run, ms) => setTimeout(run, ms),
  cancelTask: (handle) => clearTimeout(handle),
}

/**
 * A hidden tab gets no animation frames: past this, what waits for the first frame runs anyway, so a tab opened in
 * the background still has its whole screen when it is shown.
 */
export const FRAME_FALLBACK_MS = 500

/**
 * Runs `run` once, in a task of its own after the next frame has been rendered: what the first screen doesn't need
 * (the workspace rail, panels) then costs neither the task that mounts the first screen nor that frame's style and
 * layout, each of which must stay under 50 ms on a first visit. Returns a cancel.
 */
export function afterFirstFrame(run: () => void, scheduler: FrameScheduler = browser): () => void {
  let done = false
  let task: ReturnType<typeof setTimeout> | undefined
  const once = () => {
    if (done) return
    done = true
    scheduler.cancelFrame(frame)
    scheduler.cancelTask(fallback)
    if (task !== undefined) scheduler.cancelTask(task)
    run()
  }
  // A frame callback runs before that frame's style and layout; the task it posts runs after them.
  const frame = scheduler.frame(() => {
    if (!done) task = scheduler.task(once, 0)
  })
  const fallback = scheduler.task(once, FRAME_FALLBACK_MS)
  return () => {
    done = true
    scheduler.cancelFrame(frame)
    scheduler.cancelTask(fallback)
    if (task !== undefined) scheduler.cancelTask(task)
  }
}
