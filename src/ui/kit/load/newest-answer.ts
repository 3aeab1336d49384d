/**
 * Keeps a slow answer from overwriting a newer one. Each `load` supersedes the loads before it, and its handlers run
 * only while it is the newest; `supersede()` makes every load in flight stale (a save that set the state itself).
 */
export function createNewestAnswer() {
  let generation = 0
  return {
    async load<T>(
      ask: () => Promise<T>,
      handlers: { answer: (value: T) => void; failure?: (error: unknown) => void; settled?: () => void },
    ): Promise<void> {
      const mine = ++generation
      try {
        const value = await ask()
        if (mine === generation) handlers.answer(value)
      } catch (error) {
        if (mine === generation) handlers.failure?.(error)
      } finally {
        if (mine === generation) handlers.settled?.()
      }
    },
    supersede(): void {
      generation++
    },
  }
}
