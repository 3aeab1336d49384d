import { describe, expect, expectTypeOf, it } from 'vitest'
import type { WorkerApi } from '../core/protocol'
import type { Handlers } from '../core/protocol/base'
import type { AgentsApi } from '../core/protocol/agents'
import type { EditorApi, FilesApi } from '../core/protocol/files'
import type { CompactionApi, HistoryApi } from '../core/protocol/history'
import type { LifecycleApi } from '../core/protocol/lifecycle'
import type { McpConnectionApi, McpServersApi } from '../core/protocol/mcp'
import type { GitRemotesApi } from '../core/protocol/git-remotes'
import type { PermissionsApi } from '../core/protocol/permissions'
import type { ProjectSetupApi, ProjectsApi } from '../core/protocol/projects'
import type { RunApi } from '../core/protocol/run'
import type { SessionsApi } from '../core/protocol/sessions'
import type { SettingsApi } from '../core/protocol/settings'
import type { ShareApi } from '../core/protocol/share'
import type { OperationsApi } from '../core/protocol/operations'
import type { SyncApi } from '../core/protocol/sync'
import type { TerminalApi } from '../core/protocol/terminal'
import type { WorkspaceApi } from '../core/protocol/workspace'
import type { UsageApi } from '../core/protocol/usage'
import { emptyMetrics } from '../store/part-writer'
import { makeTestContext } from '../testing/test-context'
import { agentHandlers } from './agent-handlers'
import { compactionHandlers } from './compaction-handlers'
import { editorHandlers } from './editor-handlers'
import { createEngine } from './engine'
import { ENGINE_METHODS, type EngineApi, type EntryApi } from './engine-slices'
import { fileHandlers } from './file-handlers'
import { historyHandlers } from './history-handlers'
import { makeLocalLocks } from './locks'
import { permissionHandlers } from './permission-handlers'
import { providerHandlers } from './provider-handlers'
import { runHandlers } from './run-handlers'
import { shareHandlers } from './share-handlers'
import { syncHandlers } from './sync-handlers'
import { terminalHandlers } from './terminal-handlers'
import { usageHandlers } from './usage-handlers'
import { workspaceHandlers } from './workspace-handlers'
import { WorkspaceManager } from './workspace-manager'
import { workspaceReadHandlers } from './workspace-read-handlers'

// The `expectTypeOf` checks hold when the project typechecks (`tsc` covers the tests too); vitest itself only runs them.
describe("the contract's slices", () => {
  it('are each answered by one handler file, exactly', () => {
    expectTypeOf(runHandlers).returns.toEqualTypeOf<Handlers<RunApi>>()
    expectTypeOf(historyHandlers).returns.toEqualTypeOf<Handlers<HistoryApi>>()
    expectTypeOf(compactionHandlers).returns.toEqualTypeOf<Handlers<CompactionApi>>()
    expectTypeOf(permissionHandlers).returns.toEqualTypeOf<Handlers<PermissionsApi>>()
    expectTypeOf(shareHandlers).returns.toEqualTypeOf<Handlers<ShareApi>>()
    expectTypeOf(editorHandlers).returns.toEqualTypeOf<Handlers<EditorApi>>()
    expectTypeOf(fileHandlers).returns.toEqualTypeOf<Handlers<FilesApi>>()
    expectTypeOf(terminalHandlers).returns.toEqualTypeOf<Handlers<TerminalApi>>()
    expectTypeOf(workspaceHandlers).returns.toEqualTypeOf<Handlers<ProjectSetupApi>>()
    expectTypeOf(workspaceReadHandlers).returns.toEqualTypeOf<Handlers<WorkspaceApi>>()
    expectTypeOf(providerHandlers).returns.toEqualTypeOf<Handlers<SettingsApi>>()
    expectTypeOf(agentHandlers).returns.toEqualTypeOf<Handlers<AgentsApi>>()
    expectTypeOf(syncHandlers).returns.toEqualTypeOf<Handlers<SyncApi>>()
    expectTypeOf(usageHandlers).returns.toEqualTypeOf<Handlers<UsageApi>>()
  })

  it('make up the whole contract, no two of them naming the same method', () => {
    type Slices = [
      LifecycleApi, SessionsApi, RunApi, HistoryApi, CompactionApi, ProjectsApi, ProjectSetupApi, WorkspaceApi, EditorApi,
      FilesApi, TerminalApi, ShareApi, SettingsApi, AgentsApi, PermissionsApi, McpServersApi, McpConnectionApi, GitRemotesApi,
      SyncApi, UsageApi, OperationsApi,
    ]
    type Methods<List> = List extends [infer First, ...infer Rest] ? keyof First | Methods<Rest> : never
    expectTypeOf<Methods<Slices>>().toEqualTypeOf<keyof WorkerApi>()
    // No method is in two slices.
    type Overlaps<List, Seen = never> = List extends [infer First, ...infer Rest] ? (keyof First & Seen) | Overlaps<Rest, Seen | keyof First> : never
    expectTypeOf<Overlaps<Slices>>().toEqualTypeOf<never>()
  })
})

describe("the split between the worker's entry and its engine", () => {
  it('gives every method of the contract to exactly one of them', () => {
    expectTypeOf<keyof EntryApi | keyof EngineApi>().toEqualTypeOf<keyof WorkerApi>()
    expectTypeOf<keyof EntryApi & keyof EngineApi>().toEqualTypeOf<never>()
    expect(new Set(ENGINE_METHODS).size).toBe(ENGINE_METHODS.length)
  })

  it('forwards exactly the methods the loaded engine answers', () => {
    const { context } = makeTestContext()
    const engine = createEngine({
      store: context,
      ready: () => context,
      projectID: () => undefined,
      models: {
        resolve: async () => {
          throw new Error('no models here')
        },
        smallModel: async () => undefined,
      },
      locks: makeLocalLocks(),
      commands: { cancel: () => {}, onCancel: () => {}, requestStatus: () => {}, onStatusRequest: () => {} },
      metrics: emptyMetrics(),
      workspaces: new WorkspaceManager(() => context, { requestWebContainer: () => {}, webContainerAllowed: async () => false, programs: async () => [] }),
    })
    expect(Object.keys(engine.handlers).sort()).toEqual([...ENGINE_METHODS].sort())
  }, 30_000)
})
