import { DEFAULT_AGENT } from '../core/agent'
import { CommandConfirmationError, confirmsSwitch, type CommandSwitch } from '../core/project-files/errors'
import { isTrusted } from '../core/project-files/trust'
import { modelReference, namedModel } from '../core/provider/named-model'
import type { ModelReference, PromptPartInput, SessionInfo } from '../core/schema'
import type { StoreContext } from '../store/context'
import { findProject } from '../store/project-store'
import { loadProviders } from '../store/provider-store'
import type { Workspace } from '../workspace/workspace'
import { expandProjectCommand } from './project-commands'

/** A prompt that invoked a project command: its parts with the template in place, and what the command runs as. */
export interface PromptCommand {
  parts: PromptPartInput[]
  name: string
  agent?: string | undefined
  /** The command's model, when a configured provider offers it; otherwise the prompt's own model stands. */
  model?: ModelReference | undefined
}

/**
 * `/name arguments` as the prompt's first text, when `name` is one of the project's commands: the prompt becomes
 * its template, run as the command's agent and model. Undefined for any other prompt. Throws
 * `CommandConfirmationError` when the command switches agent or model in a project the user has not trusted and
 * the prompt does not carry the user's confirmation of that switch.
 */
export async function promptCommand(
  store: StoreContext,
  prompt: { parts: PromptPartInput[]; agent?: string | undefined; command?: CommandSwitch | undefined },
  session: SessionInfo,
  workspace: Workspace,
  chosen: ModelReference,
): Promise<PromptCommand | undefined> {
  const [first, ...rest] = prompt.parts
  if (first?.type !== 'text') return undefined
  const expanded = await expandProjectCommand(workspace, first.text)
  if (!expanded) return undefined
  const model = await commandModel(store, expanded.model)
  const trusted = await projectTrusted(store, session.projectID)
  assertCommandConfirmed(prompt, expanded, { model, chosen, trusted })
  return { parts: [{ ...first, text: expanded.text }, ...rest], name: expanded.name, agent: expanded.agent, model }
}

/**
 * A command that switches agent or model runs only once the user saw which, unless they trust the project: its file
 * could otherwise run a prompt under an agent the picker does not show. Throws `CommandConfirmationError` for the page.
 */
export function assertCommandConfirmed(
  prompt: { agent?: string | undefined; command?: CommandSwitch | undefined },
  command: { name: string; agent?: string | undefined; model?: string | undefined },
  runs: { model?: ModelReference | undefined; chosen: ModelReference; trusted: boolean },
): void {
  const agent = command.agent !== undefined && command.agent !== (prompt.agent ?? DEFAULT_AGENT) ? command.agent : undefined
  const model = runs.model && !sameModel(runs.model, runs.chosen) ? command.model : undefined
  if ((agent === undefined && model === undefined) || runs.trusted) return
  const change = { name: command.name, ...(agent ? { agent } : {}), ...(model ? { model } : {}) }
  if (!confirmsSwitch(prompt.command, change)) throw new CommandConfirmationError(change)
}

const sameModel = (a: ModelReference, b: ModelReference) => a.providerID === b.providerID && a.modelID === b.modelID

/** A project not stored counts as one the user has not trusted. */
async function projectTrusted(store: StoreContext, projectID: string): Promise<boolean> {
  const project = await findProject(store, projectID)
  return !!project && isTrusted(project)
}

/** A command's `provider/model`, when a configured provider offers it. */
async function commandModel(store: StoreContext, text: string | undefined): Promise<ModelReference | undefined> {
  if (!text) return undefined
  return namedModel(modelReference(text), await loadProviders(store.db))
}
