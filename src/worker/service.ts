import type { StoreContext } from '../store/context'
import { DATABASE_NAME, type TabcodeDatabase } from '../store/database'
import { AppError } from '../core/errors'
import type { EventSink } from '../core/event'
import { writeFixture } from '../store/fixture'
import { pageMessages } from '../store/message-store'
import { searchSessions } from '../store/search'
import { currentProject, rememberCurrentProject } from '../store/project-store'
import type { Project } from '../core/schema'
import {
  children,
  createSession,
  getSession,
  listSessions,
  removeSession,
  setArchived,
  setTitle,
} from '../store/session-store'
import { closeDatabase, deleteDatabase, onVersionChange, type OpenResult } from '../store/open-database'
import { agentHandlers } from './agent-handlers'
import { providerHandlers } from './provider-handlers'
import type { SessionEvent } from '../core/event'
import { createPermissionService, type PermissionService } from '../runtime/permission'
import { changedFiles, fileDiffs, loadSnapshot, sessionDiffs, trackSnapshot } from '../snapshot'
import { createFileTimes } from '../tools/file-times'
import type { FileTimes } from '../core/ports'
import { permissionGate, permissionHandlers } from './permission-handlers'
import { prepareProject, workspaceHandlers } from './workspace-handlers'
import { WorkspaceManager } from './workspace-manager'
import { parseShellCommands } from '../tools/bash'
import { runHandlers } from './run-handlers'
import { compactionHandlers } from './compaction-handlers'
import { historyHandlers } from './history-handlers'
import { shareHandlers } from './share-handlers'
import { terminalHandlers } from './terminal-handlers'
import { editorHandlers } from './editor-handlers'
import { fileHandlers } from './file-handlers'
import { makeLocalLocks, SessionRunner, type CommandChannel, type Locks } from './session-runner'
import { sleepWithSignal } from '../runtime/loop'
import type { ModelSource } from '../runtime/model-source'
import { getSettings } from '../store/provider-store'
import { ToolRegistry } from '../tools/registry'
import { emptyMetrics } from '../store/part-writer'
import { PROTOCOL_VERSION, type StartResult, type WorkerApi, type WorkerHandlers, type WorkerNotice } from '../core/protocol'

export interface ServiceOptions {
  open: () => Promise<OpenResult>
  emit: EventSink
  now?: () => number
  version: string
  /** How the loop reaches models (the configured providers in the app, mock models in tests). */
  models?: (context: StoreContext) => ModelSource
  /** Web Locks in the browser; an in-memory stand-in elsewhere. */
  locks?: Locks
  /** Cancel messages to and from other tabs. */
  commands?: CommandChannel
}

const noCommands: CommandChannel = { cancel: () => {}, onCancel: () => {}, requestStatus: () => {}, onStatusRequest: () => {} }

const noModels: ModelSource = {
  resolve: async () => {
    throw new Error('No model providers are available here')
  },
  smallModel: async () => undefined,
}

class NotReadyError extends AppError<Record<string, never>> {
  constructor() {
    super('NotReadyError', 'The storage is not open yet', {})
  }
}

/** The worker's implementation of the RPC surface; every write in the app goes through here. */
export interface Service extends WorkerHandlers {
  /** Another tab reported this session busy: take over cleanup if its runner dies. */
  watchSession(sessionID: string): void
  /** An event from another tab's worker (a permission answer given there). */
  hearEvent(event: SessionEvent): void
}

export function createService(options: ServiceOptions): Service {
  const now = options.now ?? Date.now
  let context: StoreContext | undefined
  let project: Project | undefined
  let starting: Promise<StartResult> | undefined
  let runner: SessionRunner | undefined
  const listeners = new Set<(notice: WorkerNotice) => void>()
  const workspaces = new WorkspaceManager(() => ready(), {
    requestWebContainer: (reason) => {
      for (const listener of listeners) listener({ type: 'webcontainer-wanted', reason })
    },
    webContainerAllowed: async () => (await getSettings(ready())).workspaceBackend !== 'local',
    // The shell's own parser, as for permissions: what counts as a program here is what the shell will run.
    programs: async (command) => (await parseShellCommands(command)).map((entry) => entry.words[0] ?? ''),
  })
  let permissions: PermissionService | undefined
  // What each session has read, for write and edit's freshness check; kept while the worker lives, as opencode does.
  const fileTimes = new Map<string, FileTimes>()
  const metrics = emptyMetrics()

  const ready = (): StoreContext => {
    if (!context) throw new NotReadyError()
    return context
  }

  async function start(): Promise<StartResult> {
    const opened = await options.open()
    if (opened.status === 'failed') return { status: 'failed', problem: opened.problem }
    watchVersionChange(opened.db)
    const store: StoreContext = { db: opened.db, now, emit: options.emit, version: options.version }
    context = store
    permissions = createPermissionService({ store })
    const tools = new ToolRegistry()
    setTimeout(() => tools.modelDefinitions(), 0)
    runner = new SessionRunner(
      {
        store,
        models: options.models?.(store) ?? noModels,
        tools,
        retryLimit: async () => (await getSettings(store)).retryLimit,
        sleep: sleepWithSignal,
        setStatus: (sessionID, status) => store.emit({ type: 'session.status', sessionID, status }),
        metrics,
        workspaces,
        permissions: permissionGate(() => permissions!),
        snapshots: {
          track: (projectID, workspace) => trackSnapshot({ store, projectID, workspace }),
          changedFiles: async (before, after) => changedFiles(await loadSnapshot(store, before), await loadSnapshot(store, after)),
          diffs: (before, after) => fileDiffs({ store, before, after }),
          sessionDiffs: (turns) => sessionDiffs({ store, turns }),
        },
        fileTimes: (sessionID) => {
          let times = fileTimes.get(sessionID)
          if (!times) fileTimes.set(sessionID, (times = createFileTimes()))
          return times
        },
      },
      options.locks ?? makeLocalLocks(),
      options.commands ?? noCommands,
    )
    project = await currentProject(store)
    return { status: 'ready', project, version: options.version }
  }

  function watchVersionChange(db: TabcodeDatabase) {
    // Another tab opened a newer schema: let go of the database so its upgrade can run, and ask for a reload.
    onVersionChange(db, () => {
      context = undefined
      for (const listener of listeners) listener({ type: 'reload-required', reason: 'tabcode was updated in another tab.' })
    })
  }

  const workspace = workspaceHandlers(ready, () => workspaces, () => project?.id)
  const api: Service = {
    watchSession: (sessionID: string) => runner?.watch(sessionID),
    hearEvent: (event: SessionEvent) => permissions?.handleRemoteReply(event),
    hello: () => ({ protocol: PROTOCOL_VERSION, version: options.version }),
    start: () => (starting ??= start()),
    onNotice: (listener: (notice: WorkerNotice) => void) => {
      listeners.add(listener)
    },
    listSessions: (input: Parameters<WorkerApi['listSessions']>[0]) =>
      listSessions(ready(), { projectID: project?.id, ...input }),
    getSession: (sessionID: string) => getSession(ready(), sessionID),
    createSession: (input: Parameters<WorkerApi['createSession']>[0]) => {
      const projectID = input.projectID ?? project?.id
      if (!projectID) throw new NotReadyError()
      return createSession(ready(), { ...input, projectID })
    },
    renameSession: (sessionID: string, title: string) => setTitle(ready(), sessionID, title),
    archiveSession: (sessionID: string, archived: boolean) => setArchived(ready(), sessionID, archived),
    removeSession: async (sessionID: string) => ({
      removed: (await removeSession(ready(), sessionID)).map((info) => info.id),
    }),
    children: (sessionID: string) => children(ready(), sessionID),
    searchSessions: (input: Parameters<WorkerApi['searchSessions']>[0]) =>
      searchSessions(ready(), { query: input.query, ...(input.limit ? { limit: input.limit } : {}), ...(input.allProjects || !project ? {} : { projectID: project.id }) }),
    pageMessages: (input: Parameters<WorkerApi['pageMessages']>[0]) => pageMessages(ready(), input),
    resetDatabase: async () => {
      if (context) closeDatabase(context.db)
      context = undefined
      starting = undefined
      await deleteDatabase(DATABASE_NAME)
    },
    writeFixture: (fixture: Parameters<WorkerApi['writeFixture']>[0]) => writeFixture(ready(), fixture),
    metrics: () => ({ ...metrics }),
    ...providerHandlers(ready),
    ...agentHandlers(ready),
    ...workspace,
    ...terminalHandlers((projectID) => workspaces.get(projectID)),
    ...editorHandlers(ready, (projectID) => workspaces.get(projectID)),
    ...fileHandlers(
      ready,
      (projectID) => workspaces.get(projectID),
      (projectID, change) => workspaces.together(projectID, change),
    ),
    ...shareHandlers(ready, () => project?.id, (input) => prepareProject(ready(), input)),
    openProject: async (projectID: string) => {
      project = await rememberCurrentProject(ready(), projectID)
      await workspaces.switchTo(projectID)
      return project
    },
    ...permissionHandlers(() => {
      ready()
      return permissions!
    }),
    ...runHandlers(ready, () => {
      ready()
      return runner!
    }),
    ...compactionHandlers(
      ready,
      () => {
        ready()
        return runner!
      },
      () => workspaces,
    ),
    ...historyHandlers(
      ready,
      () => {
        ready()
        return runner!
      },
      () => workspaces,
    ),
  }
  return api
}
