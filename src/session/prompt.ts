import { DEFAULT_AGENT, type AgentFile } from '../core/agent'
import { InputError } from '../core/errors'
import { allowsAll, effectiveRules } from '../core/permission/evaluate'
import { approvalsFor } from '../core/permission/pinned-approvals'
import type { PromptInput, PromptResult } from '../core/protocol'
import { assertWritable } from '../core/read-only'
import type { ModelReference, PromptPartInput, SessionInfo } from '../core/schema'
import { modelForPrompt } from '../core/settings'
import { agentFor, listAgentSummaries } from '../store/agent-settings'
import { projectApprovals } from '../store/ask-store'
import type { StoreContext } from '../store/context'
import { checkPromptParts, createUserMessage, enqueuePrompt } from '../store/prompt'
import { getSettings } from '../store/provider-store'
import { getSession } from '../store/session-store'
import { projectAgentsOf } from './project-agents'
import { promptCommand, type PromptCommand } from './prompt-command'
import { storeAttachments } from './prompt-attachments'
import { resolveCommandMentions, resolveMentions, type MentionGate, type MentionSources } from './prompt-mentions'
import { finishRevert } from './revert'
import type { WorkspaceSource } from './turn-services'

/** What taking in a prompt reaches beyond its own reads: the store, the project's files, the session's loop. */
export interface PromptIntake {
  store: StoreContext
  /** What a session's mentions and project commands read; without it, a prompt is stored as typed. */
  mentionSources?: (sessionID: string) => Promise<MentionSources>
  /** Runs the session's loop (or lets the running one see the prompt): called once the prompt is stored or queued. */
  start: (sessionID: string) => void
}

/**
 * A prompt from the page to the session's inbox, in order: the model it runs with, the project command its first
 * text invokes, its mentions read, its attachments stored, a pending revert made final, then the prompt stored for
 * the running loop to answer (steered) or queued behind the turn. Nothing is stored when a step refuses. The loop
 * itself runs in the background: this resolves once the prompt is stored.
 */
export async function acceptPrompt(intake: PromptIntake, input: PromptInput): Promise<PromptResult> {
  const { store } = intake
  const chosen = await modelFor(store, input)
  checkPromptParts(input.parts)
  const session = await getSession(store, input.sessionID)
  assertWritable(session, 'go on with it')
  // Mentions are expanded once, when the prompt is stored (queued ones too), as opencode does: the model then sees
  // the file as it was when the user sent it. Most prompts have neither: they skip reading the agents and opening
  // the workspace.
  const sources = intake.mentionSources && mayExpand(input.parts) ? await intake.mentionSources(input.sessionID) : undefined
  const command = sources?.workspace ? await promptCommand(store, input, session, sources.workspace, chosen) : undefined
  const agent = command?.agent ?? input.agent
  const gate = () => commandGate(store, session, agent ?? DEFAULT_AGENT, sources?.agentFiles ?? [])
  const mentioned = await withMentions(input, command, sources, gate)
  // Attachments go into blobs before the prompt is stored, queued or not: a part then names its blob.
  const parts = await storeAttachments(store, mentioned)
  const model = command?.model ?? chosen
  const prompt = { sessionID: input.sessionID, parts, ...(agent ? { agent } : {}), model }
  // A new prompt continues from a pending revert: what it hid goes for good before the prompt is stored.
  await finishRevert(store, input.sessionID)
  if (input.delivery === 'queue') {
    const entry = await enqueuePrompt(store, prompt)
    intake.start(input.sessionID)
    return { status: 'queued', inputID: entry.id }
  }
  const { info } = await createUserMessage(store, prompt)
  intake.start(input.sessionID)
  return { status: 'stored', messageID: info.id }
}

/**
 * What mentions read in a session's project: its workspace, its agent files as its trust lets them count, and the
 * subagents a mention may call. Without its workspace (it failed to open) a mention stays text; the prompt itself
 * must not fail for it.
 */
export async function promptMentionSources(store: StoreContext, workspaces: Pick<WorkspaceSource, 'get'>, sessionID: string): Promise<MentionSources> {
  const session = await getSession(store, sessionID)
  const workspace = await workspaces.get(session.projectID).catch(() => undefined)
  const agentFiles = workspace ? await projectAgentsOf(store, session.projectID, async () => workspace) : []
  const agents = await listAgentSummaries(store, agentFiles)
  const subagents = agents.filter((agent) => agent.mode !== 'primary' && !agent.hidden && !agent.disabled).map((agent) => agent.name)
  return { sessionID, subagents, agentFiles, ...(workspace ? { workspace } : {}) }
}

/** A text that may name a file (`@`) or a project command (`/` first): only such a prompt reads the project. */
function mayExpand(parts: readonly PromptPartInput[]): boolean {
  return parts.some((part) => part.type === 'text' && (part.text.includes('@') || part.text.trimStart().startsWith('/')))
}

/** The model a prompt runs with: the one chosen for it, else the session's last one, else the default. */
async function modelFor(store: StoreContext, input: PromptInput): Promise<ModelReference> {
  const session = input.model ? undefined : await getSession(store, input.sessionID)
  const settings = input.model || session?.model ? undefined : await getSettings(store)
  const model = modelForPrompt({ explicit: input.model, session, settings })
  if (model) return model
  throw new InputError('model', 'No model is chosen yet. Add a provider in Settings and pick a default model.')
}

/**
 * The prompt's mentions, read once. A command's template was written by its file, not by the user: its own mentions
 * are read only where the agent it runs as may read without asking (`commandGate`), while what the user typed after
 * its name is read as in any prompt.
 */
async function withMentions(
  input: PromptInput,
  command: PromptCommand | undefined,
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
async function commandGate(store: StoreContext, session: SessionInfo, agentName: string, files: readonly AgentFile[]): Promise<MentionGate> {
  const [agent, approvals] = await Promise.all([agentFor(store, agentName, files), projectApprovals(store, session.projectID)])
  const rules = effectiveRules({ agentRules: agent.permission, sessionRules: session.permission })
  return ({ permission, patterns }) => allowsAll(permission, patterns, rules, approvalsFor(approvals, permission, undefined).holding)
}
