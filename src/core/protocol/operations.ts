import type { Progress } from '../progress'

/**
 * What a long operation (an import, an export, a backup, a new project's files) takes beside its input: the id the
 * page may cancel it by, chosen by the page. Its progress goes to the callback passed with it (a callback, so it
 * reaches the tab that asked, never the event channel every tab hears), at most every 100 ms.
 */
export interface OperationInput {
  operationID?: string
}

export type ProgressCallback = (progress: Progress) => void

/** Stopping long operations the page started. */
export interface OperationsApi {
  /**
   * Asks the operation to stop where it can stop cleanly: an import's transaction is aborted (nothing of it is
   * stored), an export hands nothing back. Nothing when no operation has that id (it ended already).
   */
  cancelOperation(operationID: string): void
}
