import type { Fixture } from '../dto/fixture'
import type { WriterMetrics } from '../dto/metrics'
import type { Project } from '../schema'
import type { GitTokenAsk } from './git-remotes'

export type DatabaseProblem =
  | { type: 'newer-version'; message: string }
  | { type: 'blocked'; message: string }
  | { type: 'corrupt'; message: string; detail: string }
  | { type: 'unavailable'; message: string; detail: string }

export type StartResult =
  | { status: 'ready'; project: Project; version: string }
  | { status: 'failed'; problem: DatabaseProblem }

/** Notices about the worker itself (not about sessions); delivered only to the tab that owns the worker. */
export type WorkerNotice =
  | { type: 'reload-required'; reason: string }
  /** A command needs Node.js or npm, which only WebContainer runs: the page (the only place it boots) should start it. */
  | { type: 'webcontainer-wanted'; reason: string }
  /** A git command in this tab's worker needs a host's token: the page asks the user (answered by `answerGitToken`). */
  | { type: 'git-token-wanted'; ask: GitTokenAsk }
  /** The ask is over without an answer from the page (the command was stopped). */
  | { type: 'git-token-settled'; id: string }

/** The worker itself: the handshake, its database, its notices, its counters and the tests' way in. */
export interface LifecycleApi {
  hello(): { protocol: number; version: string }
  start(): StartResult
  onNotice(listener: (notice: WorkerNotice) => void): void
  /** Deletes the local database after the user confirmed it on the recovery screen. */
  resetDatabase(): void
  /** Streaming counters since the worker started (benchmark and diagnostics). */
  metrics(): WriterMetrics
  /** Test hook: writes validated rows as they are. */
  writeFixture(fixture: Fixture): { sessions: number; messages: number; parts: number }
}
