import type { ModelReference, Project, SessionInfo } from '../schema'

/** A point in a session's history: a whole message, or a part and everything after it. */
export interface RevertInput {
  sessionID: string
  messageID: string
  partID?: string
}

/** What a revert would do, for the confirmation: how many messages it hides and which files it changes how. */
export interface RevertPreview {
  /** The first hidden message (a revert of an assistant reply as a whole goes back to its prompt). */
  messageID: string
  partID?: string
  messages: number
  files: { path: string; change: 'restore' | 'delete' }[]
}

/** Exactly what the next request of a session would send (the "what the model sees" view). */
export interface ModelView {
  model?: ModelReference
  system: string
  /** The AI SDK's model messages, after compaction, prune and every history rule. */
  messages: unknown[]
  estimatedTokens: number
  /** The id of the summary the history starts from, when it was compacted. */
  summaryMessageID?: string
}

export interface ForkResult {
  session: SessionInfo
  /** The fork's project: the same one, or a copy holding the files as they were at the branch point. */
  project: Project
  newProject: boolean
}

/** The sessions a session was forked from and into, for moving between them (`SessionsApi.forks` reads it). */
export interface ForkFamily {
  /** The session this one was forked from, if it still exists. */
  origin?: SessionInfo
  /** Sessions forked from this one, oldest first. */
  forks: SessionInfo[]
}

/** Going back in a session's history: forking it, or reverting it to an earlier point (and undoing that). */
export interface HistoryApi {
  /** A new session with the history before `messageID` (exclusive; all of it without one). */
  forkSession(input: { sessionID: string; messageID?: string }): ForkResult
  revertPreview(input: RevertInput): RevertPreview
  /** Hides the history from the point on (removed at the next prompt); with `files`, restores the files it changed. */
  revertSession(input: RevertInput & { files: boolean }): SessionInfo
  unrevertSession(sessionID: string): SessionInfo
}

/** The history the model sees: summarising it by hand, undoing a summary, and the view of the next request. */
export interface CompactionApi {
  /** Summarises the session's history now (manual compaction); resolves once the request is stored and running. */
  compactSession(input: { sessionID: string; model?: ModelReference }): void
  /** Undoes a compaction (by its marker message): the model gets the full history again; the summary stays visible. */
  undoCompaction(input: { sessionID: string; messageID: string }): void
  modelView(sessionID: string): ModelView
}
