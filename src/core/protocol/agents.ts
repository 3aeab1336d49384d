import type { AgentFileProblem, AgentSettingsInput, AgentSummary } from '../dto/agents'

export type { AgentFileProblem, AgentSettingsInput, AgentSummary }

/** Agents for the pickers and the settings screen, with the user's overrides and own agents. */
export interface AgentsApi {
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
}
