import type { Project } from '../../core/schema'
import { connectWorker, type WorkerConnection } from '../worker-client'
import { failureFromConnectError, type BootFailure } from './boot-failure'

export type BootOutcome =
  | { status: 'ready'; connection: WorkerConnection; project: Project; version: string }
  /** `connection` is there when the worker answered but its storage did not open (the reset needs it). */
  | { status: 'failed'; failure: BootFailure; connection?: WorkerConnection }

/** Connects to the worker and opens storage. Never throws: every way this fails becomes a failure to explain. */
export async function boot(connect: () => Promise<WorkerConnection> = connectWorker): Promise<BootOutcome> {
  let connection: WorkerConnection
  try {
    connection = await connect()
  } catch (error) {
    return { status: 'failed', failure: failureFromConnectError(error) }
  }
  try {
    const result = await connection.api.start()
    if (result.status === 'failed') return { status: 'failed', failure: { kind: 'storage', problem: result.problem }, connection }
    return { status: 'ready', connection, project: result.project, version: result.version }
  } catch (error) {
    return { status: 'failed', failure: failureFromConnectError(error), connection }
  }
}
