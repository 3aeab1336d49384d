import { subagentSessionRules } from '../core/permission/evaluate'
import type { SubtaskRequest, SubtaskResult } from '../core/ports'
import { lastOf } from '../core/history'
import { loadRecentHistory } from '../store/recent-history'
import { modelForPrompt } from '../core/settings'
import type { AssistantMessage, ModelReference, SessionInfo } from '../core/schema'
import { agentFor } from '../store/agent-settings'
import { projectAgentsOf } from './project-agents'
import type { StoreContext } from '../store/context'
import { createUserMessage } from '../store/prompt'
import { createSession, findSession } from '../store/session-store'
import type { WorkspaceSource } from './turn-services'

/**
 * A subagent's turn (the task tool): a child session of the calling one, with the subagent's agent and the caller's
 * model, run to completion inline (by `runLoop`, the loop itself). Aborting the parent aborts it (same signal); its
 * final text is the result.
 */
export async function runSubtask(
  dependencies: { store: StoreContext; workspaces?: Pick<WorkspaceSource, 'get'> },
  request: SubtaskRequest,
  parent: SessionInfo,
  signal: AbortSignal,
  runLoop: (sessionID: string, signal: AbortSignal) => Promise<unknown>,
): Promise<SubtaskResult> {
  const { store } = dependencies
  const parentHistory = (await loadRecentHistory(store, parent.id)).history
  const files = dependencies.workspaces ? await projectAgentsOf(store, parent.projectID, () => dependencies.workspaces!.get(parent.projectID)) : []
  const agent = await agentFor(store, request.agent, files)
  const model = modelForPrompt({ explicit: agent.model, lastUser: lastOf(parentHistory, 'user')?.info as { model?: ModelReference } | undefined })
  if (!model) throw new Error('The subagent has no model to run with.')
  const existing = request.sessionID ? await findSession(store, request.sessionID) : undefined
  const child =
    existing && existing.parentID === parent.id
      ? existing
      : await createSession(store, {
          projectID: parent.projectID,
          parentID: parent.id,
          title: `${request.description} (@${request.agent} subagent)`,
          // As opencode: the child keeps the parent's denials and gets no todo list or nested subagents of its own.
          permission: subagentSessionRules(parent.permission ?? [], agent.permission),
        })
  await createUserMessage(store, { sessionID: child.id, parts: [{ type: 'text', text: request.prompt }], model, agent: request.agent })
  await runLoop(child.id, signal)
  if (signal.aborted) throw Object.assign(new Error('The subagent was stopped'), { name: 'AbortError' })
  const history = (await loadRecentHistory(store, child.id)).history
  const last = lastOf(history, 'assistant')
  const info = last?.info as AssistantMessage | undefined
  if (info?.error) throw new Error(`The subagent failed: ${'message' in info.error.data ? String(info.error.data.message) : info.error.name}`)
  const output = (last?.parts ?? []).flatMap((part) => (part.type === 'text' && !part.synthetic ? [part.text] : [])).join('\n').trim()
  return { sessionID: child.id, output, model }
}
