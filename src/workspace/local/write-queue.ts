/**
 * Runs tasks one at a time in the order they were queued. Every change to a workspace goes through one queue, so
 * two writes never read the index, commit, and update it interleaved (e.g. both creating the same parent).
 */
export function createWriteQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const result = tail.then(task)
    // A failed task fails its caller only; the next task still runs.
    tail = result.catch(() => undefined)
    return result
  }
}
