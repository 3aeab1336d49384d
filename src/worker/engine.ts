import type { StoreContext } from '../store/context'
import type { Handlers } from '../core/protocol/base'
import type { SessionEvent } from '../core/event'
import type { FileTimes } from '../core/ports'
import type { ModelSource } from '../session/model-source'
import type { WriterMetrics } from '../store/part-writer'
import { createPermissionService } from '../session/permission'
import { sleepWithSignal } from '../session/loop'
import { changedFiles, fileDiffs, loadSnapshot, sessionDiffs, trackSnapshot } from '../snapshot'
import { createFileTimes } from '../tools/file-times'
import { parseShellCommands } from '../tools/bash'
import { ToolRegistry } from '../tools/registry'
import { getSettings } from '../store/provider-store'
import { permissionGate, permissionHandlers } from './permission-handlers'
import { prepareProject, workspaceHandlers } from './workspace-handlers'
import type { WorkspaceManager } from './workspace-manager'
import { runHandlers } from './run-handlers'
import { compactionHandlers } from './compaction-handlers'
import { historyHandlers } from './history-handlers'
import { shareHandlers } from './share-handlers'
import { createOperations } from './operations'
import { terminalHandlers } from './terminal-handlers'
import { editorHandlers } from './editor-handlers'
import { fileHandlers } from './file-handlers'
import { SessionRunner } from './session-runner'
import type { CommandChannel, Locks } from './locks'
import type { EngineApi } from './engine-slices'
import { createMcpHub } from '../mcp/hub'
import { mcpConnector } from '../mcp/client'
import { forgetMcpOAuth, loadMcpOAuth, loadMcpServers, updateMcpOAuth } from '../store/mcp-store'
import { mcpSignIn } from '../mcp/oauth'
import { mcpOAuthProvider, type McpOAuthStorage } from '../mcp/oauth-provider'
import { mcpOAuthRedirectUrl } from '../core/mcp-oauth-callback'
import { RESERVED_MCP_NAMES, type McpServerConfig } from '../core/mcp'
import { NotFoundError } from '../core/errors'
import { detectOpaqueProbe } from './provider-handlers'
import { rememberPackagesIn } from '../workspace/python/package-memory'
import { loadPythonPackages, savePythonPackages } from '../store/python-packages'


export interface EngineDependencies {
  store: StoreContext
  /** Throws NotReadyError once the database went away (another tab's upgrade, a reset). */
  ready: () => StoreContext
  /** The project the sidebar shows. */
  projectID: () => string | undefined
  models: ModelSource
  locks: Locks
  commands: CommandChannel
  metrics: WriterMetrics
  /** The projects' workspaces, made by the entry (which reads stored files with them before this loads). */
  workspaces: WorkspaceManager
}

export interface Engine {
  handlers: Handlers<EngineApi>
  /** Another tab reported this session busy: take over cleanup if its runner dies. */
  watchSession(sessionID: string): void
  /** An event from another tab's worker (a permission answer given there). */
  hearEvent(event: SessionEvent): void
  /** Opening a session: repaired if no runner holds it (the runner knows what runs in this tab). */
  openSession(sessionID: string): Promise<{ repaired: boolean }>
  /** Runs what waits in a session's inbox (a dead runner's queue the entry found on open). */
  start(sessionID: string): void
  /** The programs a command line runs, by the shell's parser (what WebContainer is wanted for). */
  programs(command: string): Promise<readonly string[]>
}

export function createEngine(dependencies: EngineDependencies): Engine {
  const { store, ready, metrics, workspaces } = dependencies
  const permissions = createPermissionService({ store })
  rememberPackagesIn({ load: () => loadPythonPackages(ready()), save: (names) => savePythonPackages(ready(), names) })
  // What each session has read, for write and edit's freshness check; kept while the worker lives, as opencode does.
  const fileTimes = new Map<string, FileTimes>()
  const tools = new ToolRegistry()
  setTimeout(() => tools.modelDefinitions(), 0)
  let probe: Promise<'conclusive' | 'inconclusive'> | undefined
  const origin = globalThis.location?.origin ?? ''
  const redirectUrl = mcpOAuthRedirectUrl(origin || 'http://localhost')
  const oauthStorage = (config: McpServerConfig): McpOAuthStorage => ({
    read: () => loadMcpOAuth(ready(), config),
    update: (change) => updateMcpOAuth(ready(), config, change),
    forget: () => forgetMcpOAuth(ready(), config.name),
  })
  const connect = mcpConnector({
    origin,
    opaqueProbe: () => (probe ??= detectOpaqueProbe((input, init) => globalThis.fetch(input, init))),
    // Only a server signed in before gets a provider: one never signed in just shows that it offers OAuth.
    oauth: async (config) => ((await loadMcpOAuth(ready(), config)).tokens ? mcpOAuthProvider({ storage: oauthStorage(config), redirectUrl }) : undefined),
  })
  // A server's tool may take neither a built-in tool's name nor a permission's.
  const mcp = createMcpHub({ servers: () => loadMcpServers(ready()), connect, reserved: [...RESERVED_MCP_NAMES, ...tools.definitions.keys()] })
  const signIn = mcpSignIn({ connect, storage: oauthStorage, redirectUrl })
  const serverNamed = async (name: string): Promise<McpServerConfig> => {
    const config = (await loadMcpServers(ready())).find((server) => server.name === name)
    if (!config) throw new NotFoundError('MCP server', name)
    return config
  }
  const runner = new SessionRunner(
    {
      store,
      models: dependencies.models,
      tools,
      mcp,
      retryLimit: async () => (await getSettings(store)).retryLimit,
      sleep: sleepWithSignal,
      online: () => globalThis.navigator?.onLine ?? true,
      setStatus: (sessionID, status) => store.emit({ type: 'session.status', sessionID, status }),
      metrics,
      workspaces,
      permissions: permissionGate(() => permissions),
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
    dependencies.locks,
    dependencies.commands,
  )
  const ranBy = () => {
    ready()
    return runner
  }
  const run = runHandlers(ready, ranBy, workspaces)
  // The long operations a page may follow and cancel (imports, exports, new projects' files).
  const operations = createOperations()
  const workspace = workspaceHandlers(ready, () => workspaces, dependencies.projectID, operations)
  // Each handler file answers one slice; the MCP connections are answered here, where the runner's hub is.
  const handlers: Handlers<EngineApi> = {
    ...run,
    ...workspace,
    ...terminalHandlers((projectID) => workspaces.get(projectID)),
    ...editorHandlers(ready, (projectID) => workspaces.get(projectID)),
    ...fileHandlers(
      ready,
      (projectID) => workspaces.get(projectID),
      (projectID, change) => workspaces.together(projectID, change),
    ),
    ...shareHandlers(ready, dependencies.projectID, async (input) => (await prepareProject(ready(), input)).rows, operations),
    cancelOperation: (operationID) => operations.cancel(operationID),
    ...permissionHandlers(() => {
      ready()
      return permissions
    }),
    ...compactionHandlers(ready, ranBy, () => workspaces),
    ...historyHandlers(ready, ranBy, () => workspaces),
    mcpStatus: (input) => mcp.status(input),
    mcpSignIn: async ({ name }) => {
      const start = await signIn.start(await serverNamed(name))
      // Stored tokens worked after all: the hub's kept failure must not stand for 30 s more.
      if (start.type === 'connected') mcp.reset(name)
      return start
    },
    mcpFinishSignIn: async ({ name, ...callback }) => {
      await signIn.finish(await serverNamed(name), callback)
      mcp.reset(name)
      return mcp.status()
    },
    mcpSignOut: async ({ name }) => {
      await forgetMcpOAuth(ready(), name)
      mcp.reset(name)
      return mcp.status()
    },
  }
  return {
    handlers,
    watchSession: (sessionID) => runner.watch(sessionID),
    hearEvent: (event) => permissions.handleRemoteReply(event),
    openSession: async (sessionID) => ({ repaired: await runner.repairIfIdle(sessionID) }),
    start: (sessionID) => void runner.start(sessionID),
    // The shell's own parser, as for permissions: what counts as a program here is what the shell will run.
    programs: async (command) => (await parseShellCommands(command)).map((entry) => entry.words[0] ?? ''),
  }
}
