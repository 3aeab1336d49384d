import { describe, expect, it, vi } from 'vitest'
import { afterFirstFrame, FRAME_FALLBACK_MS, type FrameScheduler } from './after-first-frame'

/** A scheduler whose frames and tasks run only when the test says so. */
function manual() {
  let next = 1
  const frames = new Map<number, () => void>()
  const tasks = new Map<number, { run: () => void; ms: number }>()
  const scheduler: FrameScheduler = {
    frame: (run) => (frames.set(next, run), next++),
    cancelFrame: (handle) => void frames.delete(handle),
    task: (run, ms) => (tasks.set(next, { run, ms }), next++) as unknown as ReturnType<typeof setTimeout>,
    cancelTask: (handle) => void tasks.delete(handle as unknown as number),
  }
  const runAll = <T,>(map: Map<number, T>, pick: (entry: T) => (() => void) | undefined) => {
    for (const [handle, entry] of [...map]) {
      const run = pick(entry)
      if (!run) continue
      map.delete(handle)
      run()
    }
  }
  return {
    scheduler,
    renderFrame: () => runAll(frames, (run) => run),
    runTasks: (ms: number) => runAll(tasks, (task) => (task.ms === ms ? task.run : undefined)),
    pending: () => frames.size + tasks.size,
  }
}

describe('afterFirstFrame', () => {
  it('runs in a task after the next frame, not in the frame or before it', () => {
    const clock = manual()
    const run = vi.fn()
    afterFirstFrame(run, clock.scheduler)
    clock.runTasks(0)
    expect(run).not.toHaveBeenCalled()
    clock.renderFrame()
    expect(run).not.toHaveBeenCalled()
    clock.runTasks(0)
    expect(run).toHaveBeenCalledTimes(1)
    // The fallback is cancelled: nothing is left to run twice.
    expect(clock.pending()).toBe(0)
  })

  it('runs without a frame once the fallback passes (a hidden tab), and only once', () => {
    const clock = manual()
    const run = vi.fn()
    afterFirstFrame(run, clock.scheduler)
    clock.runTasks(FRAME_FALLBACK_MS)
    expect(run).toHaveBeenCalledTimes(1)
    clock.renderFrame()
    clock.runTasks(0)
    expect(run).toHaveBeenCalledTimes(1)
    expect(clock.pending()).toBe(0)
  })

  it('never runs once cancelled', () => {
    const clock = manual()
    const run = vi.fn()
    const cancel = afterFirstFrame(run, clock.scheduler)
    clock.renderFrame()
    cancel()
    clock.runTasks(0)
    clock.runTasks(FRAME_FALLBACK_MS)
    expect(run).not.toHaveBeenCalled()
    expect(clock.pending()).toBe(0)
  })
})
