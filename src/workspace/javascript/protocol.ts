import type { EngineEntry } from './engine'
import type { FsChanges } from './memory-fs'

/** The agent's worker → the engine's worker: one script to run over a snapshot of the project's files. */
export interface EngineRunMessage {
  type: 'run'
  id: number
  root: string
  cwd: string
  env: Record<string, string>
  stdin: string
  entry: EngineEntry
  args: string[]
  /** The files this engine has not seen as they are now (new or changed since its last run). */
  files: { path: string; content: Uint8Array; modified: number }[]
  /** The files it keeps from its last run, unchanged; any other file it held is gone. */
  keep: string[]
  directories: string[]
  /** Set to 1 to stop the script at QuickJS's next interrupt check; absent when the page is not cross-origin isolated. */
  stop?: Int32Array
}

export interface EngineStopMessage {
  type: 'stop'
  id: number
}

export type EngineRequest = EngineRunMessage | EngineStopMessage

/** The engine's worker → the agent's worker. */
export type EngineReply =
  | { type: 'output'; id: number; fd: 1 | 2; text: string }
  | { type: 'done'; id: number; exitCode: number; stopped: boolean; changes: FsChanges; spent: boolean }
  | { type: 'failed'; id: number; message: string }

/** Where the engine runs: a dedicated worker in the browser, the same thread in tests. */
export interface EngineChannel {
  post(message: EngineRequest): void
  onReply(listener: (reply: EngineReply) => void): void
  terminate(): void
}
