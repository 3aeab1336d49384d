import type { AgentFileProblem, AgentSettingsInput, AgentSummary } from './dto/agents'
import type { SerializedError } from './errors'
import type { SessionEvent } from './event'
import type { Fixture } from './dto/fixture'
import type { CreateSessionInput, ListSessionsInput, SessionPage } from './dto/sessions'
import type { SearchHit } from './dto/search'
import type { MessagePage, MessagePageInput } from './dto/messages'
import type { ModelInfo, ProviderConfig, ProviderType } from './provider/schema'
import type { McpServerInput, McpServerStatus, McpServerSummary } from './mcp'
import type { McpSignInStart } from './mcp-oauth'
import type { Settings } from './settings'
import type { WriterMetrics } from './dto/metrics'
import type {
  Approval,
  FileDiff,
  ModelReference,
  PermissionAsk,
  PermissionReply,
  Project,
  InboxEntry,
  PromptPartInput,
  ReviewedRule,
  SessionInfo,
  Setting,
  Todo,
} from './schema'
import type { FileStat, WorkspaceBackend } from './workspace'
import type { ProjectFileMatch } from './dto/composer'
import type { ProjectCommandSummary } from './dto/commands'
import type { ExportFile, ExportFilesPreview, ImportOutcome, ShareLinkInput, ShareLinkPreview, ShareLinkResult } from './dto/share'
import type { ProjectTrustReport } from './dto/trust'
import type { CommandSwitch } from './project-files/errors'

/**
 * The one contract between the UI and its worker. Bump PROTOCOL_VERSION on any incompatible change: a page and a
 * worker (or another tab) from different builds then refuse each other with a clear "reload" instead of misbehaving.
 */
// 2: exports (`exportSession`, `exportBackup`) carry their JSON as a Blob in `data`, no longer as `text` (issue 18).
// 3: the `answer` reply to a question ask, `searchProjectFiles` and `listProjectCommands` (issue 19).
// 4: `readAttachment`, prompt attachments as `tabcode-blob:` file parts, MCP servers, project agents, `createProject`
//    answering what it left out (issues 19, 20).
// 5: project trust (`projectTrust`, `setProjectTrust`, the `project.updated` event, projects' `trust` and `origin`, the
//    allow rules the user reviewed), a project command's confirmation (`PromptInput.command`), and `answerPrompt`
//    (issue 27).
export const PROTOCOL_VERSION = 5

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

export type StartResult =
  | { status: 'ready'; project: Project; version: string }
  | { status: 'failed'; problem: DatabaseProblem }

export type { AgentFileProblem, AgentSettingsInput, AgentSummary, ProjectCommandSummary, ProjectFileMatch, ProjectTrustReport, SearchHit, Settings }

/** Notices about the worker itself (not about sessions); delivered only to the tab that owns the worker. */
export type WorkerNotice =
  | { type: 'reload-required'; reason: string }
  /** A command needs Node.js or npm, which only WebContainer runs: the page (the only place it boots) should start it. */
  | { type: 'webcontainer-wanted'; reason: string }

/** A provider as the UI sees it: never the key itself, only whether one is stored. */
export type ProviderSummary = Omit<ProviderConfig, 'apiKey'> & { hasKey: boolean }

export interface ProviderInput {
  /** Absent for a new provider. */
  id?: string
  type: ProviderType
  name: string
  baseURL?: string
  /** A new key replaces the stored one; `null` removes it; absent keeps it. */
  apiKey?: string | null
  models: ModelInfo[]
}

/** What "Test connection" found, with the real cause when it failed. */
export type ConnectionResult =
  /** `listed`: the same models with what tabcode knows of each (the table's, or what the server itself reported). */
  | { status: 'ok'; models: string[]; listed: RemoteModel[]; latencyMs: number }
  | {
      status: 'failed'
      cause: 'cors' | 'auth' | 'unreachable' | 'unknown-model' | 'http' | 'invalid-response'
      message: string
      statusCode?: number
    }

/** A model the provider's API lists, with what tabcode knows about it (limits and prices from the built-in table). */
export interface RemoteModel {
  id: string
  name?: string
  known?: ModelInfo
}


export type DeliveryMode = 'steer' | 'queue'

export interface PromptInput {
  sessionID: string
  parts: PromptPartInput[]
  model?: ModelReference
  agent?: string
  /** `steer` (default): answered by the running loop at its next step. `queue`: runs after the current turn. */
  delivery?: DeliveryMode
  /**
   * The project command the user confirmed running under its own agent or model (what a `CommandConfirmationError`
   * named). In a project the user has not trusted, such a command is refused without it.
   */
  command?: CommandSwitch
}

export type PromptResult = { status: 'stored'; messageID: string } | { status: 'queued'; inputID: string }

/** Which workspace backend the project's tools use, and why that one. */
export interface WorkspaceInfo {
  projectID: string
  backend: WorkspaceBackend
  root: string
  /** Why WebContainer is not in use, in words for the user (absent when it is). */
  reason?: string
}

/** A file as the viewer gets it: text when it is text, otherwise only its size. */
export type FileContent =
  | { type: 'text'; path: string; text: string; size: number }
  | { type: 'binary'; path: string; size: number }

/** What a new project starts from. Files are given as path (relative to the project root) → bytes. */
export type ProjectSource = { type: 'empty' } | { type: 'files'; files: { path: string; data: Uint8Array }[] } | { type: 'zip'; data: Uint8Array }

/** A new project, and what its import left out (dependency and ignored folders), for the user to be told. */
export interface CreatedProject {
  project: Project
  leftOut: { files: number; folders: string[] }
}

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

/** The sessions a session was forked from and into, for moving between them. */
export interface ForkFamily {
  /** The session this one was forked from, if it still exists. */
  origin?: SessionInfo
  /** Sessions forked from this one, oldest first. */
  forks: SessionInfo[]
}

/** A save from the editor (see `WorkerApi.saveFile`). */
export interface SaveFileInput {
  projectID: string
  path: string
  content: string
  expected?: string
  sessionID?: string
}

export interface SavedFile {
  path: string
  size: number
  modified: number
}

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
  /** Providers and models. Keys go in, never out. */
  listProviders(): ProviderSummary[]
  saveProvider(input: ProviderInput): ProviderSummary
  removeProvider(providerID: string): void
  listRemoteModels(providerID: string): RemoteModel[]
  /** Tests a provider as entered (before saving it) or a stored one; optionally checks that a model exists. */
  testConnection(input: ProviderInput, modelID?: string): ConnectionResult
  getSettings(): Settings
  setSetting(setting: Setting): Settings
  /** Remote MCP servers. Header values go in (a header sent without one keeps the stored value), never out. */
  listMcpServers(): McpServerSummary[]
  saveMcpServer(input: McpServerInput): McpServerSummary[]
  removeMcpServer(name: string): McpServerSummary[]
  /** Each server's state, connecting to those not connected yet (`refresh`: reconnect every one). */
  mcpStatus(input: { refresh?: boolean }): McpServerStatus[]
  /**
   * Starts an OAuth sign-in to a server that offers it: answers the authorization URL for the page to open in a popup
   * (the worker cannot), and the state its callback must carry.
   */
  mcpSignIn(input: { name: string }): McpSignInStart
  /** Exchanges the code the callback page got for tokens (kept like keys, never handed out); answers the statuses. */
  mcpFinishSignIn(input: { name: string; code: string; state: string; iss?: string }): McpServerStatus[]
  /** Forgets a server's OAuth tokens and client; answers the statuses. */
  mcpSignOut(input: { name: string }): McpServerStatus[]
  /**
   * Every agent (built in, from the project's `.opencode/agent(s)` files, added in Settings) with the user's overrides
   * applied, disabled and hidden ones included (pickers filter). The project is the current one unless named.
   */
  listAgents(input?: { projectID?: string }): AgentSummary[]
  /**
   * Replaces one agent's overrides (an empty override restores the agent, or removes one the user added); a new
   * name with a prompt and a mode adds an agent. Answers with the new list.
   */
  saveAgentSettings(input: AgentSettingsInput): AgentSummary[]
  /** The project's agent files that cannot be used, each with what is wrong (the other agents are unaffected). */
  listAgentFileProblems(input?: { projectID?: string }): AgentFileProblem[]
  /** Stores the prompt (or queues it) and makes sure a loop answers it; resolves once stored, not when answered. */
  prompt(input: PromptInput): PromptResult
  /** Stops the session's running turn, in whichever tab runs it. */
  cancel(sessionID: string): void
  /** Runs the loop again after a failed turn (the error banner's retry). */
  resume(sessionID: string): void
  /**
   * Answers a prompt that nothing answered or works on (the session view's "Answer it now"). Nothing runs unless,
   * once the session's lock is held (no runner anywhere), that prompt is still the newest and still has no reply.
   */
  answerPrompt(input: { sessionID: string; messageID: string }): void
  /** Called when a session is opened: repairs a turn whose runner died, unless a live runner holds it. */
  openSession(sessionID: string): { repaired: boolean }
  /** Writes streamed text now (the page is being hidden and may be killed). */
  flush(): void
  todos(sessionID: string): Todo[]
  /** An attachment's bytes by its blob hash (a `tabcode-blob:` URL's), for its preview; null when not stored. */
  readAttachment(hash: string): Uint8Array | null
  /** The session's queued prompts, next to run first. */
  queuedPrompts(sessionID: string): InboxEntry[]
  /** Replaces a queued prompt's parts, keeping its place; a NotFoundError once it has run. */
  editQueuedPrompt(inputID: string, parts: PromptPartInput[]): InboxEntry
  /** Takes a prompt off the queue; false when it was gone already (it ran, or another tab removed it). */
  removeQueuedPrompt(inputID: string): boolean
  /** Streaming counters since the worker started (benchmark and diagnostics). */
  metrics(): WriterMetrics
  /** Projects (each a named workspace). */
  listProjects(): Project[]
  createProject(input: { name: string; source: ProjectSource }): CreatedProject
  /** Opens another project: its sessions list, new sessions and WebContainer follow; remembered across reloads. */
  openProject(projectID: string): Project
  /** A project's trust, and what its own files would change once trusted, rule by rule (for the trust dialog). */
  projectTrust(input: { projectID: string }): ProjectTrustReport
  /**
   * Trusts a project or stops trusting it; every tab hears `project.updated`. `reviewed`: the allow rules of its files
   * the user was shown (only they apply); in a trusted project, adds them to those the user has seen.
   */
  setProjectTrust(input: { projectID: string; trusted: boolean; reviewed?: ReviewedRule[] }): Project
  workspaceInfo(projectID: string): WorkspaceInfo
  listFiles(input: { projectID: string; path: string }): FileStat[]
  readFile(input: { projectID: string; path: string }): FileContent
  /** Fuzzy matches over the project's files and folders for the prompt's `@` (skips node_modules and .git). */
  searchProjectFiles(input: { projectID: string; query: string; limit: number }): ProjectFileMatch[]
  /** The project's own commands for the `/` palette. */
  listProjectCommands(input: { projectID: string }): ProjectCommandSummary[]
  /** A file's bytes for the static preview (images and fonts too); null when there is no such file. */
  readPreviewFile(input: { projectID: string; path: string }): Uint8Array | null
  /** Every file the session's turns changed, net, with unified patches. */
  sessionDiffs(sessionID: string): FileDiff[]
  /** The page booted WebContainer and hands it over (a port to it); it then serves the current project's tools. */
  attachWorkspace(port: MessagePort): WorkspaceInfo
  /** The page could not start WebContainer; `reason` says why, in words for the user. */
  useLocalWorkspace(reason: string): WorkspaceInfo
  /** Permission questions waiting in a session, oldest first. */
  pendingAsks(sessionID: string): PermissionAsk[]
  replyAsk(input: { askID: string; reply: PermissionReply }): void
  /** Remembered "always" answers of a project, for review and revocation in settings. */
  listApprovals(projectID: string): Approval[]
  revokeApproval(approvalID: string): void
  /** Summarises the session's history now (manual compaction); resolves once the request is stored and running. */
  compactSession(input: { sessionID: string; model?: ModelReference }): void
  /** Undoes a compaction (by its marker message): the model gets the full history again; the summary stays visible. */
  undoCompaction(input: { sessionID: string; messageID: string }): void
  modelView(sessionID: string): ModelView
  /** A new session with the history before `messageID` (exclusive; all of it without one). */
  forkSession(input: { sessionID: string; messageID?: string }): ForkResult
  forks(sessionID: string): ForkFamily
  revertPreview(input: RevertInput): RevertPreview
  /** Hides the history from the point on (removed at the next prompt); with `files`, restores the files it changed. */
  revertSession(input: RevertInput & { files: boolean }): SessionInfo
  unrevertSession(sessionID: string): SessionInfo
  /** Full-text search over titles and message text of the current project (or every project), newest first. */
  searchSessions(input: { query: string; limit?: number; allProjects?: boolean }): SearchHit[]
  /** Share links (issue 6): the size meter and redaction preview; `encrypted` counts the passphrase's overhead. */
  previewShareLink(input: ShareLinkInput & { encrypted?: boolean }): ShareLinkPreview
  /** Makes the link (ShareTooLongError past 512 K characters); a passphrase only encrypts it and is never stored. */
  createShareLink(input: ShareLinkInput & { passphrase?: string }): ShareLinkResult
  /** Whether a link needs a passphrase, so the UI can ask before opening it. */
  inspectShareLink(link: string): { encrypted: boolean; version: number }
  /** Opens a link into the current project (read-only; the same link twice gives the same session). */
  openShareLink(input: { link: string; passphrase?: string }): ImportOutcome
  /** A `tabcode-session` file of one session (and its children), optionally with its last snapshot's files. */
  /**
   * A session as a file: `tabcode` (a `tabcode-session`, optionally with workspace files) or `opencode` (what
   * `opencode export` writes, for `opencode import`; one session, no files).
   */
  exportSession(input: { sessionID: string; format?: ExportFormat; includeFiles?: boolean; includeUnscanned?: string[] }): ExportFile
  /** The workspace files an export could not scan for secrets (binary), so the user can choose to keep them. */
  previewExportFiles(input: { sessionID: string }): ExportFilesPreview
  /** A `tabcode-backup` file: every project, session, message and part; never providers, keys or settings. */
  exportBackup(): ExportFile
  /** Imports a tabcode session or backup file, or an opencode export. */
  importFile(input: { data: Uint8Array | string }): ImportOutcome
  // ── Editor (issue 17): the user's saves ──────────────────────────────────────────────────────────────────────────
  /**
   * Saves a file the user edited: written through the project's workspace (watchers, tree and snapshots see it),
   * snapshotted, and recorded on `sessionID` as the user's change. With `expected` (the text the editor started
   * from), a file changed on disk since then is not overwritten: a SaveConflictError.
   */
  saveFile(input: SaveFileInput): SavedFile
  /** The files the user saved while the session was open, net per file, with unified patches. */
  userEdits(sessionID: string): FileDiff[]
  // ── end editor ──
  // ── Files (issue 17): the file tree's own changes, each a user change snapshotted like an editor save ──────────
  /** Creates an empty file `name` in `directory`; a name that cannot be used is a WorkspaceError saying why. */
  createFile(input: { projectID: string; directory: string; name: string; sessionID?: string }): FileActionResult
  createFolder(input: { projectID: string; directory: string; name: string; sessionID?: string }): FileActionResult
  /** Renames a file or folder in place, contents (and a folder's whole subtree) kept. */
  renameFile(input: { projectID: string; path: string; name: string; sessionID?: string }): FileActionResult
  /** Moves a file or folder into `directory`, keeping its name. */
  moveFile(input: { projectID: string; path: string; directory: string; sessionID?: string }): FileActionResult
  /** Deletes a file or folder; the worker keeps its contents for `restoreDeleted` (the last few, while it lives). */
  deleteFile(input: { projectID: string; path: string; sessionID?: string }): DeletedEntry
  /** Puts a deleted file or folder back where it was, contents included. */
  restoreDeleted(input: { token: string; sessionID?: string }): FileActionResult
  /** Files dropped from the OS into `directory` (paths relative to it), with the import's safety rules. */
  writeUploaded(input: { projectID: string; directory: string; files: { path: string; data: Uint8Array }[]; sessionID?: string }): { written: string[] }
  /** The project's files as a zip archive (without node_modules), zipped in the worker. */
  zipProject(input: { projectID: string }): { name: string; data: Uint8Array }
  // ── end files ──
  /** Test hook: writes validated rows as they are. */
  writeFixture(fixture: Fixture): { sessions: number; messages: number; parts: number }

  // Terminal (issue 17): the user's own shells over the project's workspace, each keeping its cwd and variables.
  /**
   * Opens a terminal in the project's root. Every command's output reaches `onOutput` (a callback, so it goes to
   * this tab only, over its own port, never the event channel every tab hears).
   */
  terminalOpen(input: { projectID: string }, onOutput: (chunk: string) => void): TerminalInfo
  /** Runs one command line; resolves when it ended and all its output has reached `onOutput`. */
  terminalRun(input: { terminalID: string; command: string }): TerminalRunResult
  /** Stops the command running in the terminal (Ctrl+C); nothing when none runs. */
  terminalCancel(terminalID: string): void
  /** Stops what runs and forgets the terminal's state. */
  terminalClose(terminalID: string): void
}

/** Where a file-tree action left its file or folder. */
export interface FileActionResult {
  path: string
  type: 'file' | 'directory'
}

/** A deletion the worker can undo (`restoreDeleted` with the token). */
export interface DeletedEntry {
  token: string
  path: string
  type: 'file' | 'directory'
  /** How many files went with it (a folder's, counted through its subfolders). */
  files: number
}

/** A terminal as opened: where it starts, and the home its prompt shortens to `~`. */
export interface TerminalInfo {
  terminalID: string
  cwd: string
  home: string
}

export interface TerminalRunResult {
  exitCode: number
  /** Where the next command runs (after a `cd`). */
  cwd: string
  aborted: boolean
}

/** The file formats a session exports to. */
export type ExportFormat = 'tabcode' | 'opencode'

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
