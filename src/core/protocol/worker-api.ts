import type { Handlers, Result } from './base'
import type { LifecycleApi } from './lifecycle'
import type { SessionsApi } from './sessions'
import type { RunApi } from './run'
import type { CompactionApi, HistoryApi } from './history'
import type { ProjectSetupApi, ProjectsApi } from './projects'
import type { WorkspaceApi } from './workspace'
import type { EditorApi, FilesApi } from './files'
import type { TerminalApi } from './terminal'
import type { ShareApi } from './share'
import type { SettingsApi } from './settings'
import type { AgentsApi } from './agents'
import type { PermissionsApi } from './permissions'
import type { McpConnectionApi, McpServersApi } from './mcp'
import type { GitRemotesApi } from './git-remotes'
import type { SyncApi } from './sync'
import type { UsageApi } from './usage'
import type { OperationsApi } from './operations'

/**
 * The one contract between the UI and its worker: every domain's slice, each in its own file here. Two slices may not
 * name the same method (the worker's entry and its engine each answer whole slices; see worker/engine-slices.ts).
 */
export interface WorkerApi
  extends LifecycleApi,
    SessionsApi,
    RunApi,
    HistoryApi,
    CompactionApi,
    ProjectsApi,
    ProjectSetupApi,
    WorkspaceApi,
    EditorApi,
    FilesApi,
    TerminalApi,
    ShareApi,
    SettingsApi,
    AgentsApi,
    PermissionsApi,
    McpServersApi,
    McpConnectionApi,
    GitRemotesApi,
    SyncApi,
    UsageApi,
    OperationsApi {}

/** What actually crosses postMessage: every method resolves to a Result, so named errors keep their data. */
export type WireApi = {
  [K in keyof WorkerApi]: WorkerApi[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Result<R>> : never
}

/** What the worker implements: each method may answer synchronously or with a promise. */
export type WorkerHandlers = Handlers<WorkerApi>

/** What the UI calls: plain promises that reject with rebuilt AppErrors. */
export type ClientApi = {
  [K in keyof WorkerApi]: WorkerApi[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never
}
