import { listAgentSummaries, saveAgentSettings } from '../store/agent-settings'
import type { StoreContext } from '../store/context'
import type { AgentSettingsInput, WorkerHandlers } from '../core/protocol'

type AgentHandlers = Pick<WorkerHandlers, 'listAgents' | 'saveAgentSettings'>

/** Agents for the prompt box's picker and the settings screen, and the user's per-agent overrides. */
export function agentHandlers(ready: () => StoreContext): AgentHandlers {
  return {
    listAgents: () => listAgentSummaries(ready()),
    saveAgentSettings: (input: AgentSettingsInput) => saveAgentSettings(ready(), input),
  }
}
