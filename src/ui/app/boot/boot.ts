import type { Project } from '../../../core/schema'
import { connectWorker, type WorkerConnection } from '../../worker-client'
import { failureFromConnectError, type BootFailure } from './boot-failure'

export type BootOutcome =
  | { status: 'ready'; connection: WorkerConnection; project: Project; version: string }
  /** `connection` is there when the worker answered but its storage did not open (the reset needs it). */
  | { status: 'failed'; failure: BootFailure; connection?: WorkerConnection }

/** Opening storage usually takes a few frames; past this, the splash says what it waits for. */
export const SLOW_STORAGE_MS = 1_000

export interface BootOptions {
  /** Called once storage has been opening for `slowAfterMs` (the browser may be recovering it after a crash). */
  onSlowStorage?: () => void
  slowAfterMs?: number
}

/** Connects to the worker and opens storage. Never throws: every way this fails becomes a failure to explain. */
export async function boot(connect: () => Promise<WorkerConnection> = connectWorker, options: BootOptions = {}): Promise<BootOutcome> {
  let connection: WorkerConnection
  try {
    connection = await connect()
  } catch (error) {
    return { status: 'failed', failure: failureFromConnectError(error) }
  }
  // The worker waits for the open as long as the browser works on it; the page says so rather than look stuck.
  const slow = setTimeout(() => options.onSlowStorage?.(), options.slowAfterMs ?? SLOW_STORAGE_MS)
  try {
    const result = await connection.api.start()
    if (result.status === 'failed') return { status: 'failed', failure: { kind: 'storage', problem: result.problem }, connection }
    return { status: 'ready', connection, project: result.project, version: result.version }
  } catch (error) {
    return { status: 'failed', failure: failureFromConnectError(error), connection }
  } finally {
    clearTimeout(slow)
  }
}
