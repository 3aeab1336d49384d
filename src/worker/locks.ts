// Apart from the session runner, so the worker's entry can name them without loading the agent loop.

/** The slice of the Web Locks API the runner needs; tests pass an in-memory one. */
export interface Locks {
  request<T>(name: string, options: { signal?: AbortSignal; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>
}

/** Messages between the workers of all open tabs about sessions one of them runs. */
export interface CommandChannel {
  cancel(sessionID: string): void
  onCancel(listener: (sessionID: string) => void): void
  /** Asks whichever tab runs the session to announce its status again (a tab that just opened it needs it). */
  requestStatus(sessionID: string): void
  onStatusRequest(listener: (sessionID: string) => void): void
}

/** An in-memory stand-in for `navigator.locks` (Node tests; browsers without Web Locks run one tab safely). */
export function makeLocalLocks(): Locks {
  const tails = new Map<string, Promise<unknown>>()
  const held = new Set<string>()
  return {
    request(name, options, callback) {
      if (options.ifAvailable) {
        if (held.has(name)) return callback(null)
      }
      const previous = tails.get(name) ?? Promise.resolve()
      const result = previous.then(async () => {
        if (options.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' })
        held.add(name)
        try {
          return await callback({ name })
        } finally {
          held.delete(name)
        }
      })
      tails.set(name, result.catch(() => {}))
      return result
    },
  }
}
