import type { SerializedError } from '../session/errors'
import type { SessionEvent } from '../session/event'
import type { Fixture } from '../session/fixture'
import type { CreateSessionInput, ListSessionsInput, SessionPage } from '../session/session-store'
import type { MessagePage, MessagePageInput } from '../session/message-store'
import type { Project, SessionInfo } from '../session/schema'

/**
 * The one contract between the UI and its worker. Bump PROTOCOL_VERSION on any incompatible change: a page and a
 * worker (or another tab) from different builds then refuse each other with a clear "reload" instead of misbehaving.
 */
export const PROTOCOL_VERSION = 1

/** Cross-tab live events travel on this channel; the envelope carries the protocol so stale tabs can be told apart. */
export const EVENT_CHANNEL = 'tabcode:events'

export interface EventEnvelope {
  protocol: number
  event: SessionEvent
}

export type DatabaseProblem =
  | { type: 'newer-version'; message: string }
  | { type: 'blocked'; message: string }
  | { type: 'corrupt'; message: string; detail: string }
  | { type: 'unavailable'; message: string; detail: string }
  | { type: 'timeout'; message: string }

export type StartResult =
  | { status: 'ready'; project: Project; version: string }
  | { status: 'failed'; problem: DatabaseProblem }

/** Notices about the worker itself (not about sessions); delivered only to the tab that owns the worker. */
export type WorkerNotice = { type: 'reload-required'; reason: string }

export interface WorkerApi {
  hello(): { protocol: number; version: string }
  start(): StartResult
  onNotice(listener: (notice: WorkerNotice) => void): void
  listSessions(input: ListSessionsInput): SessionPage
  getSession(sessionID: string): SessionInfo
  createSession(input: Omit<CreateSessionInput, 'projectID'> & { projectID?: string }): SessionInfo
  renameSession(sessionID: string, title: string): SessionInfo
  archiveSession(sessionID: string, archived: boolean): SessionInfo
  removeSession(sessionID: string): { removed: string[] }
  children(sessionID: string): SessionInfo[]
  pageMessages(input: MessagePageInput): MessagePage
  /** Deletes the local database after the user confirmed it on the recovery screen. */
  resetDatabase(): void
  /** Test hook: writes validated rows as they are. */
  writeFixture(fixture: Fixture): { sessions: number; messages: number; parts: number }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: SerializedError }

/** What actually crosses postMessage: every method resolves to a Result, so named errors keep their data. */
export type WireApi = {
  [K in keyof WorkerApi]: WorkerApi[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Result<R>> : never
}

/** What the worker implements: each method may answer synchronously or with a promise. */
export type WorkerHandlers = {
  [K in keyof WorkerApi]: WorkerApi[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never
}

/** What the UI calls: plain promises that reject with rebuilt AppErrors. */
export type ClientApi = {
  [K in keyof WorkerApi]: WorkerApi[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never
}
