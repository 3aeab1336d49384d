import { resolveLanguageModel } from 'ai/internal'
import type { ModelMessage } from 'ai'
import { agentNamed, subagents, type Agent } from '../core/agent'
import { withMcpDefaults, type McpServerConfig } from '../core/mcp'
import { evaluate } from '../core/permission/evaluate'
import type { SessionInfo, UserMessage } from '../core/schema'
import type { MessageWithParts } from '../store/message-store'
import { DEFAULT_SUBAGENTS } from '../tools/task'
import type { Workspace } from '../workspace/workspace'
import type { McpHub } from '../mcp/hub'
import { buildRequest } from './compaction/request'
import type { ResolvedModel } from './model-source'
import { loadAttachments } from './prompt-attachments'
import { projectInstructions, turnToolCalls, type TurnContext, type TurnDependencies } from './turn-tools'

/** What a step sends and what its tools share: built from the history as stored, before the check that it fits. */
export interface StepRequest<Dependencies> {
  agent: Agent
  workspace: Workspace
  system: string
  messages: ModelMessage[]
  turn: TurnContext
  /** The loop's dependencies, with the tools the agent's remote MCP servers offer added to the built-in ones. */
  dependencies: Dependencies
}

/**
 * The request of a step answering `user`: the agent's system prompt over the history since the last compaction
 * boundary, the workspace's environment and AGENTS.md, the stored attachments, and the turn's tools. `step` is the
 * number of steps the turn took before this one (an agent with a step limit is told on its last).
 */
export async function stepRequest<Dependencies extends TurnDependencies & { mcp?: Pick<McpHub, 'tools'> | undefined }>(
  dependencies: Dependencies,
  input: {
    session: SessionInfo
    history: MessageWithParts[]
    user: UserMessage
    resolved: ResolvedModel
    agents: Record<string, Agent>
    step: number
    signal: AbortSignal
    /** The MCP servers' configuration as the turn read it; without it the hub reads it. */
    mcpServers?: () => Promise<McpServerConfig[]>
  },
): Promise<StepRequest<Dependencies>> {
  const { store } = dependencies
  const { session, history, user, resolved, agents } = input
  const agent = agentNamed(user.agent, agents)
  const lastStep = agent.steps !== undefined && input.step + 1 >= agent.steps
  const workspace = await dependencies.workspaces.get(session.projectID)
  const status = dependencies.workspaces.status(session.projectID)
  const { system, messages } = buildRequest({
    history,
    model: user.model,
    provider: resolveLanguageModel(resolved.model).provider,
    agent,
    environment: {
      providerID: resolved.providerID,
      modelID: resolved.modelID,
      directory: workspace.root,
      backend: status.backend,
      ...(status.reason ? { backendReason: status.reason } : {}),
      now: store.now(),
    },
    project: await projectInstructions(workspace),
    lastStep,
    attachments: await loadAttachments(store, history),
  })
  // A failing server adds no tools (its status in Settings says why); it never stops the turn.
  const mcp = dependencies.mcp
  const extra = mcp ? await (input.mcpServers ? input.mcpServers().then((servers) => mcp.tools(agent.name, servers)) : mcp.tools(agent.name)).catch(() => []) : []
  const turnDependencies = extra.length ? { ...dependencies, tools: dependencies.tools.with(extra) } : dependencies
  const turn: TurnContext = {
    session,
    agent: agent.name,
    agentRules: extra.length ? withMcpDefaults(agent, extra.map((tool) => tool.id)) : agent.permission,
    // opencode's task tool lists the subagents its caller's rules do not deny outright.
    subagents: subagents(agents)
      .filter((candidate) => evaluate('task', candidate.name, agent.permission).action !== 'deny')
      .map((candidate) => ({ name: candidate.name, description: subagentDescription(candidate) })),
    workspace,
    calls: turnToolCalls(history),
    signal: input.signal,
  }
  return { agent, workspace, system, messages, turn, dependencies: turnDependencies }
}

/** A built-in subagent as opencode's task tool describes it; another (or one a project file changed) by its own words. */
function subagentDescription(agent: Agent): string {
  const builtIn = agent.path || agent.source ? undefined : DEFAULT_SUBAGENTS.find((candidate) => candidate.name === agent.name)
  return builtIn?.description ?? agent.description
}
