import { log } from '../core/log'
import type { StoreContext } from '../store/context'
import { DATABASE_NAME, type TabcodeDatabase } from '../store/database'
import { defineError } from '../core/errors'
import type { EventSink } from '../core/event'
import { writeFixture } from '../store/fixture'
import { getBlob } from '../store/blobs'
import { pageMessages } from '../store/message-store'
import { searchSessions } from '../store/search'
import { currentProject, listProjects, rememberCurrentProject, setProjectTrust } from '../store/project-store'
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
import { agentHandlers, NO_PROJECT_AGENTS } from './agent-handlers'
import { providerHandlers } from './provider-handlers'
import { createGitRemotes } from './git-remotes'
import { listMcpServers, removeMcpServer, saveMcpServer } from '../store/mcp-store'
import type { SessionEvent } from '../core/event'
import { readTodos } from '../store/todo-store'
import { queuedPrompts } from '../store/prompt'
import { makeLocalLocks, type CommandChannel, type Locks } from './locks'
import type { ModelSource } from '../session/model-source'
import { emptyMetrics } from '../store/part-writer'
import type { Engine } from './engine'
import { ENGINE_METHODS, type EngineApi, type EntryApi } from './engine-slices'
import { engineImporter } from './import-engine'
import { WorkspaceManager } from './workspace-manager'
import { workspaceReadHandlers } from './workspace-read-handlers'
import { openWithoutRunner } from './session-repair'
import { getSettings } from '../store/provider-store'
import { forkFamily } from '../store/fork-rows'
import { PROTOCOL_VERSION, type StartResult, type WorkerApi, type WorkerHandlers, type WorkerNotice } from '../core/protocol'
import type { Handlers } from '../core/protocol/base'
import type { LifecycleApi } from '../core/protocol/lifecycle'
import type { SessionsApi } from '../core/protocol/sessions'
import type { ProjectsApi } from '../core/protocol/projects'
import type { McpServersApi } from '../core/protocol/mcp'
import { createSyncService, type SyncChannel, type SyncNetwork, type SyncTiming } from './sync-service'
import { syncHandlers } from './sync-handlers'
import { usageHandlers } from './usage-handlers'

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
  /** Loads the engine's module (tests make it fail, as offline before it was downloaded). */
  importEngine?: () => Promise<typeof import('./engine')>
  /** Sync's messages to and from other tabs' workers (none: this tab is on its own). */
  syncChannel?: SyncChannel
  /** Whether the browser is online (always, unless told). */
  network?: SyncNetwork
  /** This page's origin, named in the CORS settings a sync server needs. */
  origin?: () => string
  /** How sync reaches its server (the global fetch unless given). */
  fetch?: typeof fetch
  syncTiming?: Partial<SyncTiming>
}

const noCommands: CommandChannel = { cancel: () => {}, onCancel: () => {}, requestStatus: () => {}, onStatusRequest: () => {} }
const noSyncChannel: SyncChannel = { post: () => {}, listen: () => {} }
const alwaysOnline: SyncNetwork = { online: () => true, onChange: () => {} }

const noModels: ModelSource = {
  resolve: async () => {
    throw new Error('No model providers are available here')
  },
  smallModel: async () => undefined,
}

const NotReadyError = defineError('NotReadyError', () => ({ message: 'The storage is not open yet', data: {} as Record<string, never> }))

/**
 * The engine's code could not be loaded: offline before it was ever downloaded (only the shell is precached). What
 * was asked needs it; history, files and settings still open. The next call that needs it tries again.
 */
export const EngineUnavailableError = defineError('EngineUnavailableError', (cause: unknown) => ({
  message: "This needs the app's engine, which hasn't been downloaded yet. Reconnect once to finish the download; your sessions and files stay readable meanwhile.",
  data: { cause: cause instanceof Error ? cause.message : String(cause) },
}))

/** The worker's implementation of the RPC surface; every write in the app goes through here. */
export interface Service extends WorkerHandlers {
  /** Another tab reported this session busy: take over cleanup if its runner dies. */
  watchSession(sessionID: string): void
  /** An event from another tab's worker (a permission answer given there). */
  hearEvent(event: SessionEvent): void
}


/** How long the worker must have had no call before it loads the engine by itself, and the longest it waits. */
const QUIET_MS = 100
const AT_MOST_MS = 1_500

export function createService(options: ServiceOptions): Service {
  const now = options.now ?? Date.now
  const importEngine = options.importEngine ?? engineImporter()
  const locks = options.locks ?? makeLocalLocks()
  const commands = options.commands ?? noCommands
  let context: StoreContext | undefined
  let project: Project | undefined
  let starting: Promise<StartResult> | undefined
  const listeners = new Set<(notice: WorkerNotice) => void>()
  const notify = (notice: WorkerNotice) => {
    for (const listener of listeners) listener(notice)
  }
  const metrics = emptyMetrics()
  const sync = createSyncService({
    locks,
    channel: options.syncChannel ?? noSyncChannel,
    network: options.network ?? alwaysOnline,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.syncTiming ? { timing: options.syncTiming } : {}),
    // Files another device wrote: a loaded stored workspace reads its index again before its next use.
    onPulled: (event) => {
      if (event.type === 'workspace.changed') workspaces?.manager.forgetStored(event.projectID)
    },
  })

  const ready = (): StoreContext => {
    if (!context) throw new NotReadyError()
    return context
  }

  // The engine (the loop, providers, AI SDK, tools, workspaces) is one per opened database, loaded on first need
  // or once the first screen's reads are done, whichever comes first.
  let engine: { store: StoreContext; loading: Promise<Engine>; loaded?: Engine } | undefined
  function loadEngine(): Promise<Engine> {
    const store = ready()
    if (engine?.store === store) return engine.loading
    const entry: NonNullable<typeof engine> = {
      store,
      loading: importEngine().then(
        ({ createEngine }) => {
          entry.loaded = createEngine({
            store,
            ready,
            projectID: () => project?.id,
            models: options.models?.(store) ?? noModels,
            locks,
            commands,
            metrics,
            workspaces: workspacesOf(store),
          })
          return entry.loaded
        },
        (cause: unknown) => {
          throw new EngineUnavailableError(cause)
        },
      ),
    }
    // A failed load (offline before the engine was ever cached) is tried again by the next call that needs it.
    entry.loading.catch(() => {
      if (engine === entry) engine = undefined
    })
    engine = entry
    return entry.loading
  }
  // The projects' workspaces, one manager per opened database: the entry reads stored files with it, the engine's
  // tools and WebContainer use the same one once it has loaded.
  let workspaces: { store: StoreContext; manager: WorkspaceManager } | undefined
  const gitRemotes = createGitRemotes(ready, notify)
  function workspacesOf(store: StoreContext): WorkspaceManager {
    if (workspaces?.store === store) return workspaces.manager
    const manager = new WorkspaceManager(ready, {
      requestWebContainer: (reason) => notify({ type: 'webcontainer-wanted', reason }),
      webContainerAllowed: async () => (await getSettings(ready())).workspaceBackend !== 'local',
      // Only a command asks, and commands run in the engine, which is loaded by then.
      programs: async (command) => (await loadEngine()).programs(command),
      remotes: gitRemotes.remotes,
      // Loaded with the first outside change of a folder project: snapshots have no place in the first screen's code.
      onOutsideChange: (projectID, workspace, changes) =>
        void import('./outside-edits')
          .then(({ recordOutsideEdits }) => recordOutsideEdits(ready(), projectID, workspace, changes))
          .catch((error: unknown) => log.warn('Could not record the files changed outside', error)),
    })
    workspaces = { store, manager }
    return manager
  }

  let lastCall = 0
  let inFlight = 0
  function loadWhenQuiet(since: number) {
    const wait = () => {
      if (!context) return
      const time = now()
      if ((inFlight === 0 && time - lastCall >= QUIET_MS) || time - since >= AT_MOST_MS) void loadEngine().catch(() => {})
      else setTimeout(wait, QUIET_MS)
    }
    setTimeout(wait, QUIET_MS)
  }
  const forwarded = Object.fromEntries(
    ENGINE_METHODS.map((name) => [
      name,
      async (...args: unknown[]) => {
        const handler = (await loadEngine()).handlers[name] as (...args: unknown[]) => unknown
        return handler(...args)
      },
    ]),
  ) as Handlers<EngineApi>

  async function start(): Promise<StartResult> {
    const opened = await options.open()
    if (opened.status === 'failed') return { status: 'failed', problem: opened.problem }
    watchVersionChange(opened.db)
    // Sync hears this worker's own writes (other tabs' come through `hearEvent`): a round follows them.
    const emit: StoreContext['emit'] = (event) => {
      options.emit(event)
      sync.hear(event)
    }
    const store: StoreContext = { db: opened.db, now, emit, version: options.version }
    context = store
    // Queues for the sync lock; a server is contacted only once the user set one up.
    sync.start(store)
    project = await currentProject(store)
    loadWhenQuiet(now())
    return { status: 'ready', project, version: options.version }
  }

  function watchVersionChange(db: TabcodeDatabase) {
    // Another tab opened a newer schema: let go of the database so its upgrade can run, and ask for a reload.
    onVersionChange(db, () => {
      sync.stop()
      context = undefined
      notify({ type: 'reload-required', reason: 'tabcode was updated in another tab.' })
    })
  }

  /** Another tab's news, for the engine's runner (not part of the contract: worker.ts keeps them off the wire). */
  const hooks: Pick<Service, 'watchSession' | 'hearEvent'> = {
    watchSession: (sessionID: string) => {
      if (context) void loadEngine().then((loaded) => loaded.watchSession(sessionID), () => {})
    },
    hearEvent: (event: SessionEvent) => {
      sync.hear(event)
      // Without a loaded engine no runner here waits on a question, so there is nobody to tell.
      if (event.type === 'permission.replied') engine?.loaded?.hearEvent(event)
    },
  }
  /** The worker itself: the handshake, its database, its notices, its counters. */
  const lifecycle: Handlers<LifecycleApi> = {
    hello: () => ({ protocol: PROTOCOL_VERSION, version: options.version }),
    start: () => (starting ??= start()),
    onNotice: (listener: (notice: WorkerNotice) => void) => {
      listeners.add(listener)
    },
    resetDatabase: async () => {
      sync.stop()
      if (context) closeDatabase(context.db)
      context = undefined
      starting = undefined
      await deleteDatabase(DATABASE_NAME)
    },
    writeFixture: (fixture: Parameters<WorkerApi['writeFixture']>[0]) => writeFixture(ready(), fixture),
    metrics: () => ({ ...metrics }),
  }
  /** The session list's reads and writes, and what showing a session needs. */
  const sessions: Handlers<SessionsApi> = {
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
    todos: (sessionID: string) => readTodos(ready(), sessionID),
    readAttachment: async (hash: string) => (await getBlob(ready(), hash))?.data ?? null,
    queuedPrompts: (sessionID: string) => queuedPrompts(ready(), sessionID),
    forks: (sessionID: string) => forkFamily(ready(), sessionID),
    openSession: (sessionID: string) => {
      // The engine's runner knows what runs in this tab; without it, nothing does, and the store alone repairs.
      if (engine?.loaded && engine.store === context) return engine.loaded.openSession(sessionID)
      return openWithoutRunner(
        {
          store: ready(),
          locks,
          commands,
          start: (id) => void loadEngine().then((loaded) => loaded.start(id), () => {}),
          watch: (id) => hooks.watchSession(id),
        },
        sessionID,
      )
    },
  }
  const projects: Handlers<ProjectsApi> = {
    listProjects: () => listProjects(ready()),
    // Loaded on first use: the YAML parser has no place in the first screen's code (nor in its precache).
    listProjectCommands: async ({ projectID }: { projectID: string }) => {
      const { projectCommandSummaries } = await import('./project-command-handlers')
      return projectCommandSummaries(await workspacesOf(ready()).get(projectID))
    },
    // Loaded on first use, as the commands: the YAML parser has no place in the first screen's code.
    projectTrust: async ({ projectID }: { projectID: string }) => {
      const [{ projectTrustReport }, workspace] = await Promise.all([
        import('./project-trust-handlers'),
        workspacesOf(ready()).get(projectID).catch(() => undefined),
      ])
      return projectTrustReport(ready(), projectID, workspace)
    },
    projectFolder: ({ projectID }: { projectID: string }) => workspacesOf(ready()).folderStatus(projectID),
    connectFolder: ({ projectID }: { projectID: string }) => workspacesOf(ready()).connectFolder(projectID),
    refreshFolder: ({ projectID }: { projectID: string }) => workspacesOf(ready()).refreshFolder(projectID),
    setProjectTrust: ({ projectID, trusted, reviewed }: Parameters<WorkerApi['setProjectTrust']>[0]) => setProjectTrust(ready(), projectID, trusted, reviewed),
    openProject: async (projectID: string) => {
      project = await rememberCurrentProject(ready(), projectID)
      // WebContainer (attached only through the engine) gets that project's files; no engine, no container to switch.
      await workspacesOf(ready()).switchTo(projectID)
      return project
    },
  }
  const mcpServers: Handlers<McpServersApi> = {
    listMcpServers: () => listMcpServers(ready()),
    saveMcpServer: (input: Parameters<WorkerApi['saveMcpServer']>[0]) => saveMcpServer(ready(), input),
    removeMcpServer: (name: string) => removeMcpServer(ready(), name),
  }
  /** The entry's own slices: the first screen's reads and the session list's writes, answered without the engine. */
  const light: Handlers<EntryApi> & typeof hooks = {
    ...hooks,
    ...lifecycle,
    ...sessions,
    ...projects,
    ...providerHandlers(ready),
    // Loaded on first use, as the commands: the YAML parser has no place in the first screen's code.
    ...agentHandlers(ready, async (projectID = project?.id) => {
      if (!projectID) return NO_PROJECT_AGENTS
      const [{ projectAgentsFor }, workspace] = await Promise.all([
        import('../session/project-agents'),
        workspacesOf(ready()).get(projectID).catch(() => undefined),
      ])
      return workspace ? projectAgentsFor(ready(), projectID, workspace) : NO_PROJECT_AGENTS
    }),
    ...workspaceReadHandlers(ready, () => workspacesOf(ready()), () => project?.id),
    ...mcpServers,
    ...gitRemotes.handlers,
    ...usageHandlers(ready),
    ...syncHandlers({ ready, sync, origin: options.origin ?? (() => globalThis.location?.origin ?? ''), ...(options.fetch ? { fetch: options.fetch } : {}) }),
  }

  const service: Service = { ...light, ...forwarded }
  // Every call counts as activity, so the engine loads by itself only once the first screen's reads have gone quiet.
  const counted = Object.fromEntries(
    Object.entries(service).map(([name, handler]) => [
      name,
      async (...args: unknown[]) => {
        inFlight++
        try {
          return await (handler as (...args: unknown[]) => unknown)(...args)
        } finally {
          inFlight--
          lastCall = now()
        }
      },
    ]),
  ) as unknown as Service
  return counted
}
