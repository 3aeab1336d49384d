/**
 * Resolves on a later turn of the event loop, so timers, storage callbacks and incoming messages get to run.
 * `setTimeout(0)` is clamped to 4 ms once nested, which a stream that yields every frame would pay each time.
 * `scheduler.yield()` is no good either: its continuation is queued ahead of ordinary tasks, so a loop that keeps
 * yielding starves IndexedDB's callbacks (a whole burst was parsed before the first part was saved). A message to
 * ourselves is an ordinary task with no clamp.
 */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(undefined)
  })
}

/** Calls `nextMacrotask` at most every `interval` ms: cheap enough to call for every delta of a stream. */
export function createPacer(interval = 16, now: () => number = () => performance.now()) {
  let last = now()
  return async function pace(): Promise<void> {
    const time = now()
    if (time - last < interval) return
    last = time
    await nextMacrotask()
    last = now()
  }
}
