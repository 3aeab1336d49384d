import { assertWritable } from '../core/read-only'
import { getSettings, loadProviders } from '../store/provider-store'
import { modelReference, namedModel } from '../core/provider/named-model'
import type { StoreContext } from '../store/context'
import { InputError } from '../core/errors'
import { modelForPrompt } from '../core/settings'
import { checkPromptParts, createUserMessage, editQueuedPrompt, enqueuePrompt, removeQueuedPrompt } from '../store/prompt'
import { finishRevert } from '../session/revert'
import type { ModelReference, SessionInfo } from '../core/schema'
import { getSession } from '../store/session-store'
import type { Handlers } from '../core/protocol/base'
import type { PromptInput, RunApi } from '../core/protocol/run'
import type { SessionRunner } from './session-runner'
import { resolveCommandMentions, resolveMentions, type MentionGate, type MentionSources } from '../session/prompt-mentions'
import { storeAttachments } from '../session/prompt-attachments'
import { expandProjectCommand } from './project-command-handlers'
import type { Workspace } from '../workspace/workspace'
import type { PromptPartInput } from '../core/schema'
import { DEFAULT_AGENT, type AgentFile } from '../core/agent'
import { allowsAll, effectiveRules } from '../core/permission/evaluate'
import { approvalsFor } from '../core/permission/pinned-approvals'
import { agentFor } from '../store/agent-settings'
import { projectApprovals } from '../store/ask-store'
import { CommandConfirmationError, confirmsSwitch } from '../core/project-files/errors'
import { isTrusted } from '../core/project-files/trust'
import { findProject } from '../store/project-store'

/** The model a prompt runs with: the one chosen for it, else the session's last one, else the default. */
async function modelFor(context: StoreContext, input: PromptInput): Promise<ModelReference> {
  const session = input.model ? undefined : await getSession(context, input.sessionID)
  const settings = input.model || session?.model ? undefined : await getSettings(context)
  const model = modelForPrompt({ explicit: input.model, session, settings })
  if (model) return model
  throw new InputError('model', 'No model is chosen yet. Add a provider in Settings and pick a default model.')
}

/** `/name arguments` as the prompt's first text, when `name` is a project command: the prompt becomes its template. */
async function projectCommand(workspace: Workspace, parts: PromptPartInput[]) {
  const [first, ...rest] = parts
  if (first?.type !== 'text') return undefined
  const expanded = await expandProjectCommand(workspace, first.text)
  if (!expanded) return undefined
  return { parts: [{ ...first, text: expanded.text }, ...rest], name: expanded.name, agent: expanded.agent, model: expanded.model }
}

/**
 * A command that switches agent or model runs only once the user saw which, unless they trust the project: its file
 * could otherwise run a prompt under an agent the picker does not show. Throws `CommandConfirmationError` for the page.
 */
function assertCommandConfirmed(
  input: PromptInput,
  command: { name: string; agent?: string | undefined; model?: string | undefined },
  runs: { model?: ModelReference | undefined; chosen: ModelReference; trusted: boolean },
): void {
  const agent = command.agent !== undefined && command.agent !== (input.agent ?? DEFAULT_AGENT) ? command.agent : undefined
  const model = runs.model && !sameModel(runs.model, runs.chosen) ? command.model : undefined
  if ((agent === undefined && model === undefined) || runs.trusted) return
  const change = { name: command.name, ...(agent ? { agent } : {}), ...(model ? { model } : {}) }
  if (!confirmsSwitch(input.command, change)) throw new CommandConfirmationError(change)
}

/** A project not stored counts as one the user has not trusted. */
async function projectTrusted(context: StoreContext, projectID: string): Promise<boolean> {
  const project = await findProject(context, projectID)
  return !!project && isTrusted(project)
}

/**
 * The prompt's mentions, read once. A command's template was written by its file, not by the user: its own mentions
 * are read only where the agent it runs as may read without asking (`commandGate`), while what the user typed after
 * its name is read as in any prompt.
 */
async function withMentions(
  input: PromptInput,
  command: { parts: PromptPartInput[] } | undefined,
  sources: MentionSources | undefined,
  readable: () => Promise<MentionGate>,
): Promise<PromptPartInput[]> {
  if (!sources) return command ? command.parts : input.parts
  if (!command) return resolveMentions(input.parts, sources)
  return resolveCommandMentions(input.parts, command.parts[0]!, sources, await readable())
}

/**
 * What the agent a command runs as may read without asking, as the read tool's ask decides it: the agent's rules
 * (its project file clamped by trust, then the user's Settings), the session's, and the user's remembered answers.
 */
async function commandGate(context: StoreContext, session: SessionInfo, agentName: string, files: readonly AgentFile[]): Promise<MentionGate> {
  const [agent, approvals] = await Promise.all([agentFor(context, agentName, files), projectApprovals(context, session.projectID)])
  const rules = effectiveRules({ agentRules: agent.permission, sessionRules: session.permission })
  return ({ permission, patterns }) => allowsAll(permission, patterns, rules, approvalsFor(approvals, permission, undefined).holding)
}

const sameModel = (a: ModelReference, b: ModelReference) => a.providerID === b.providerID && a.modelID === b.modelID

/** A command's `provider/model`, when a configured provider offers it; otherwise the prompt's own model stands. */
async function commandModel(context: StoreContext, text: string | undefined): Promise<ModelReference | undefined> {
  if (!text) return undefined
  return namedModel(modelReference(text), await loadProviders(context.db))
}

/** The agent loop's operations. The loop itself runs in the background: a prompt resolves once it is stored. */
export function runHandlers(
  ready: () => StoreContext,
  runner: () => SessionRunner,
  mentionSources?: (sessionID: string) => Promise<MentionSources>,
): Handlers<RunApi> {
  return {
    prompt: async (input) => {
      const context = ready()
      const chosen = await modelFor(context, input)
      checkPromptParts(input.parts)
      const session = await getSession(context, input.sessionID)
      assertWritable(session, 'go on with it')
      // Mentions are expanded once, when the prompt is stored (queued ones too), as opencode does: the model then
      // sees the file as it was when the user sent it.
      // Most prompts have neither: they skip reading the agents and opening the workspace.
      const expands = input.parts.some((part) => part.type === 'text' && (part.text.includes('@') || part.text.trimStart().startsWith('/')))
      const sources = mentionSources && expands ? await mentionSources(input.sessionID) : undefined
      const command = sources?.workspace ? await projectCommand(sources.workspace, input.parts) : undefined
      const switched = await commandModel(context, command?.model)
      const trusted = command ? await projectTrusted(context, session.projectID) : true
      if (command) assertCommandConfirmed(input, command, { model: switched, chosen, trusted })
      const agent = command?.agent ?? input.agent
      const gate = () => commandGate(context, session, agent ?? DEFAULT_AGENT, sources?.agentFiles ?? [])
      const mentioned = await withMentions(input, command, sources, gate)
      // Attachments go into blobs before the prompt is stored, queued or not: a part then names its blob.
      const parts = await storeAttachments(context, mentioned)
      const model = switched ?? chosen
      const base = { sessionID: input.sessionID, parts, ...(agent ? { agent } : {}) }
      // A new prompt continues from a pending revert: what it hid goes for good before the prompt is stored.
      await finishRevert(context, input.sessionID)
      if (input.delivery === 'queue') {
        const entry = await enqueuePrompt(context, { ...base, model })
        void runner().start(input.sessionID)
        return { status: 'queued', inputID: entry.id }
      }
      const { info } = await createUserMessage(context, { ...base, model })
      void runner().start(input.sessionID)
      return { status: 'stored', messageID: info.id }
    },
    cancel: (sessionID) => runner().cancel(sessionID),
    resume: async (sessionID) => {
      const session = await getSession(ready(), sessionID)
      assertWritable(session, 'go on with it')
      // Retrying would answer from a history whose end is hidden; the user goes on with a prompt or an unrevert.
      if (session.revert) {
        throw new InputError('revert', 'This session has a pending revert: send a new prompt to continue from there, or undo the revert first.')
      }
      void runner().start(sessionID, { resume: true })
    },
    answerPrompt: async ({ sessionID, messageID }) => {
      const session = await getSession(ready(), sessionID)
      assertWritable(session, 'go on with it')
      void runner().answer(sessionID, messageID)
    },
    flush: () => runner().flush(),
    editQueuedPrompt: (inputID, parts) => editQueuedPrompt(ready(), inputID, parts),
    removeQueuedPrompt: (inputID) => removeQueuedPrompt(ready(), inputID),
  }
}
