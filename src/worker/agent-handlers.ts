import { listAgentSummaries, saveAgentSettings } from '../store/agent-settings'
import type { StoreContext } from '../store/context'
import type { Handlers } from '../core/protocol/base'
import type { AgentSettingsInput, AgentsApi } from '../core/protocol/agents'
import type { ProjectAgents } from '../session/project-agents'

/** A project's agent files, read from its workspace; none when there is no project or its workspace can't open. */
export type ProjectAgentSource = (projectID: string | undefined) => Promise<ProjectAgents>

export const NO_PROJECT_AGENTS: ProjectAgents = { agents: [], problems: [] }

/**
 * Agents for the prompt box's picker and the settings screen, the user's per-agent overrides and own agents, and
 * the project's agent files that cannot be used.
 */
export function agentHandlers(ready: () => StoreContext, projectAgents: ProjectAgentSource = async () => NO_PROJECT_AGENTS): Handlers<AgentsApi> {
  return {
    listAgents: async (input?: { projectID?: string }) => {
      const context = ready()
      return listAgentSummaries(context, (await projectAgents(input?.projectID)).agents)
    },
    saveAgentSettings: async (input: AgentSettingsInput) => {
      const context = ready()
      return saveAgentSettings(context, input, (await projectAgents(input?.projectID)).agents)
    },
    listAgentFileProblems: async (input?: { projectID?: string }) => {
      ready()
      return (await projectAgents(input?.projectID)).problems
    },
  }
}
