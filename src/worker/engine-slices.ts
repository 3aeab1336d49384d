import type { LifecycleApi } from '../core/protocol/lifecycle'
import type { SessionsApi } from '../core/protocol/sessions'
import type { RunApi } from '../core/protocol/run'
import type { CompactionApi, HistoryApi } from '../core/protocol/history'
import type { ProjectSetupApi, ProjectsApi } from '../core/protocol/projects'
import type { WorkspaceApi } from '../core/protocol/workspace'
import type { EditorApi, FilesApi } from '../core/protocol/files'
import type { TerminalApi } from '../core/protocol/terminal'
import type { ShareApi } from '../core/protocol/share'
import type { SettingsApi } from '../core/protocol/settings'
import type { AgentsApi } from '../core/protocol/agents'
import type { PermissionsApi } from '../core/protocol/permissions'
import type { McpConnectionApi, McpServersApi } from '../core/protocol/mcp'
import type { GitRemotesApi } from '../core/protocol/git-remotes'
import type { SyncApi } from '../core/protocol/sync'
import type { UsageApi } from '../core/protocol/usage'
import type { OperationsApi } from '../core/protocol/operations'

/**
 * What the worker's entry answers itself: the first screen's reads, the session list's writes, and what showing a
 * session needs (opening it, its messages, its stored files), so that history opens before the engine has loaded,
 * or offline when it was never downloaded. service.ts answers the lifecycle, sessions, projects and MCP servers slices
 * itself; workspace-read-handlers.ts, provider-handlers.ts, agent-handlers.ts, sync-handlers.ts and usage-handlers.ts
 * answer the others.
 * Sync runs in the entry: it replicates whether or not the engine ever loads.
 */
export type EntryApi = LifecycleApi & SessionsApi & ProjectsApi & WorkspaceApi & SettingsApi & AgentsApi & McpServersApi & GitRemotesApi & SyncApi & UsageApi

/**
 * The operations that need the agent loop, the providers, the AI SDK, the tools or WebContainer. The entry loads the
 * engine (engine.ts) with `import()` once it is idle or on the first call that needs it; it forwards each of these, so
 * a prompt sent before then just waits for it. Each slice has its own `*-handlers.ts` (workspace-handlers.ts answers
 * ProjectSetupApi), except the MCP connections, which engine.ts answers beside the hub it shares with the runner.
 */
export type EngineApi = RunApi &
  HistoryApi &
  CompactionApi &
  PermissionsApi &
  ShareApi &
  EditorApi &
  FilesApi &
  TerminalApi &
  ProjectSetupApi &
  McpConnectionApi &
  OperationsApi

/** A slice's method names, as a record so that the compiler holds them to the slice: none missing, none extra. */
const names = <Api>(names: { [K in keyof Api]-?: true }) => names

/** The engine's methods by slice, which the entry forwards before the engine (and its handlers) has loaded. */
export const ENGINE_METHODS = Object.keys({
  ...names<RunApi>({ prompt: true, cancel: true, resume: true, answerPrompt: true, flush: true, editQueuedPrompt: true, removeQueuedPrompt: true }),
  ...names<HistoryApi>({ forkSession: true, revertPreview: true, revertSession: true, unrevertSession: true }),
  ...names<CompactionApi>({ compactSession: true, undoCompaction: true, modelView: true }),
  ...names<PermissionsApi>({ pendingAsks: true, replyAsk: true, listApprovals: true, revokeApproval: true }),
  ...names<ShareApi>({
    previewShareLink: true,
    createShareLink: true,
    inspectShareLink: true,
    openShareLink: true,
    exportSession: true,
    previewExportFiles: true,
    exportBackup: true,
    importFile: true,
  }),
  ...names<EditorApi>({ saveFile: true, userEdits: true, outsideEdits: true }),
  ...names<FilesApi>({
    createFile: true,
    createFolder: true,
    renameFile: true,
    moveFile: true,
    deleteFile: true,
    restoreDeleted: true,
    writeUploaded: true,
    zipProject: true,
  }),
  ...names<TerminalApi>({ terminalOpen: true, terminalRun: true, terminalCancel: true, terminalClose: true }),
  ...names<ProjectSetupApi>({ createProject: true, attachWorkspace: true }),
  ...names<McpConnectionApi>({ mcpStatus: true, mcpSignIn: true, mcpFinishSignIn: true, mcpSignOut: true }),
  ...names<OperationsApi>({ cancelOperation: true }),
} satisfies { [K in keyof EngineApi]-?: true }) as (keyof EngineApi)[]
