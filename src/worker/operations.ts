import type { OperationControl } from '../core/progress'
import { throttleProgress } from '../core/progress-throttle'
import type { ProgressCallback } from '../core/protocol/operations'

/** One running operation, as the handler that runs it sees it: its control, and `end` once it is over. */
export interface RunningOperation extends OperationControl {
  end(): void
}

/**
 * The long operations this worker runs for its page, by the id the page gave each, so `cancelOperation` can stop
 * one. The page's callback is throttled (core/progress-throttle.ts) and never awaited: a report must not hold an
 * import's transaction open or fail the work when the page is gone.
 */
export function createOperations() {
  const running = new Map<string, AbortController>()
  const start = (operationID: string | undefined, callback?: ProgressCallback): RunningOperation => {
    const controller = new AbortController()
    if (operationID) running.set(operationID, controller)
    const report = callback
      ? throttleProgress((progress) => {
          try {
            void Promise.resolve(callback(progress)).catch(() => undefined)
          } catch {
            // The page closed its end: the work goes on without reports.
          }
        })
      : undefined
    return {
      signal: controller.signal,
      ...(report ? { onProgress: report } : {}),
      end: () => {
        if (operationID && running.get(operationID) === controller) running.delete(operationID)
      },
    }
  }
  return {
    start,
    cancel(operationID: string): void {
      running.get(operationID)?.abort()
    },
    /** Runs `work` as the operation `operationID`, ended however it ends. */
    async run<T>(operationID: string | undefined, callback: ProgressCallback | undefined, work: (control: OperationControl) => Promise<T>): Promise<T> {
      const operation = start(operationID, callback)
      try {
        return await work(operation)
      } finally {
        operation.end()
      }
    },
  }
}

export type Operations = ReturnType<typeof createOperations>
