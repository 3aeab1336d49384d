import type { ModelReference } from '../core/schema'
import { loadAgents } from '../store/agent-settings'
import type { McpHub } from '../mcp/hub'
import type { StoreContext } from '../store/context'
import { getSettings } from '../store/provider-store'
import { getSession } from '../store/session-store'
import type { ModelSource } from './model-source'
import { projectAgentsOf } from './project-agents'
import type { WorkspaceSource } from './turn-services'

export interface CompactionSettings {
  /** Compact when the history nears the model's context limit, or the provider says it is over. */
  auto: boolean
  /** Clear old tool outputs from what the model sees once the loop is done. */
  prune: boolean
  /** opencode's `tail_turns`: recent turns a compaction keeps verbatim (2 when absent). */
  tailTurns?: number
  /** opencode's `preserve_recent_tokens`: the most tokens they take (absent: a quarter of the usable context, 2,000 to 8,000). */
  preserveRecentTokens?: number
}

/** Where a turn's reads come from: the loop's own dependencies. */
export interface TurnReadSources {
  store: StoreContext
  models: Pick<ModelSource, 'resolve'>
  workspaces: Pick<WorkspaceSource, 'get'>
  retryLimit(): Promise<number>
  /** The compaction settings; read from the stored settings when not given. */
  compaction?: () => Promise<CompactionSettings>
  mcp?: Pick<McpHub, 'servers'> | undefined
}

export type TurnReads = ReturnType<typeof turnReads>

/**
 * What every step of a turn reads the same: the compaction settings, the retry limit, the session, the agent, the
 * MCP servers and the resolved model, read by the first step that needs each and shared by the turn's other steps (a 20-step turn
 * made seven small transactions per step for them). A new turn (a queued prompt promoted) reads them afresh, so a
 * change in Settings applies from the next turn on, as a change of model in the prompt box does; a steering prompt
 * with another model or agent is read for itself. A failed read is not kept: the next step tries again.
 */
export function turnReads(sources: TurnReadSources, sessionID: string) {
  let memo = new Map<string, Promise<unknown>>()
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let value = memo.get(key) as Promise<T> | undefined
    if (!value) {
      const table = memo
      value = read()
      value.catch(() => table.get(key) === value && table.delete(key))
      memo.set(key, value)
    }
    return value
  }
  return {
    reset: () => void (memo = new Map()),
    settings: () => once('settings', () => compactionSettings(sources)),
    retryLimit: () => once('retry', () => sources.retryLimit()),
    session: () => once('session', () => getSession(sources.store, sessionID)),
    // With the project's agent files, read from its workspace (a file edited mid-turn counts from the next turn).
    agents: () =>
      once('agents', async () => {
        const { projectID } = await getSession(sources.store, sessionID)
        return loadAgents(sources.store, await projectAgentsOf(sources.store, projectID, () => sources.workspaces.get(projectID)))
      }),
    // The MCP servers' configuration (a server added mid-turn offers its tools from the next turn).
    mcpServers: () => once('mcp', () => sources.mcp?.servers() ?? Promise.resolve([])),
    model: (reference: ModelReference) =>
      once(`model\u0000${reference.providerID}\u0000${reference.modelID}`, () => sources.models.resolve(reference)),
  }
}

async function compactionSettings(sources: TurnReadSources): Promise<CompactionSettings> {
  if (sources.compaction) return sources.compaction()
  const settings = await getSettings(sources.store)
  return {
    auto: settings.compactionAuto,
    prune: settings.compactionPrune,
    tailTurns: settings.compactionTailTurns,
    ...(settings.compactionPreserveRecentTokens !== undefined ? { preserveRecentTokens: settings.compactionPreserveRecentTokens } : {}),
  }
}
