import { hasModel, loadProviders } from './provider-store'
import type { ProviderConfig } from '../core/provider/schema'
import { namedModel } from '../core/provider/named-model'
import { applyOverride, canDisable, definesAgent, projectAgents, resolveAgents, agentNamed, withOwnAgents, type Agent, type AgentFile } from '../core/agent'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { describeIssues, InputError, NotFoundError } from '../core/errors'
import {
  AgentOverrideSchema,
  type AgentOverride,
  type AgentOverrides,
  type ModelReference,
} from '../core/schema'

import type { AgentSettingsInput, AgentSummary } from '../core/dto/agents'
import { write } from './transaction'

export type { AgentSettingsInput, AgentSummary }

const SETTING_KEY = 'agents'

/**
 * The stored overrides, read tolerantly: an entry this build can't read (written by a newer one, or damaged) is
 * skipped on its own rather than losing every agent's settings.
 */
export async function readAgentOverrides(context: StoreContext): Promise<AgentOverrides> {
  return overridesIn(context.db)
}

async function overridesIn(db: TabcodeDatabase): Promise<AgentOverrides> {
  const row = await db.settings.get(SETTING_KEY)
  const value: unknown = row?.value
  if (!value || typeof value !== 'object') return {}
  const overrides: AgentOverrides = {}
  for (const [name, raw] of Object.entries(value)) {
    const parsed = AgentOverrideSchema.safeParse(raw)
    if (parsed.success) overrides[name] = parsed.data
  }
  return overrides
}

/**
 * The agents in effect: the built-in ones, the project's agent files (`files`, already read and parsed) over them,
 * then the stored overrides and the user's own agents. A model override whose provider or model was removed since
 * is left out, so the agent follows the prompt box's model instead of failing every turn.
 */
export async function loadAgents(context: StoreContext, files: readonly AgentFile[] = []): Promise<Record<string, Agent>> {
  const [overrides, providers] = await Promise.all([readAgentOverrides(context), loadProviders(context.db)])
  const agents = resolveAgents(usable(overrides, providers), [], undefined, files)
  for (const agent of Object.values(agents)) {
    if (!agent.model) continue
    const model = namedModel(agent.model, providers)
    if (model) agent.model = model
    else delete agent.model
  }
  return agents
}

/** The agent a turn runs with: `name` under the project's files and the stored overrides, else the default agent. */
export async function agentFor(context: StoreContext, name: string, files: readonly AgentFile[] = []): Promise<Agent> {
  return agentNamed(name, await loadAgents(context, files))
}

/** Every agent, disabled ones included, for pickers (which filter) and the settings screen. */
export async function listAgentSummaries(context: StoreContext, files: readonly AgentFile[] = []): Promise<AgentSummary[]> {
  const [overrides, providers] = await Promise.all([readAgentOverrides(context), loadProviders(context.db)])
  return summaries(overrides, providers, files)
}

/** A name the user may give an agent of their own: what a file name (and an `@` mention) can carry. */
const AGENT_NAME = /^[A-Za-z0-9][\w-]{0,63}$/

/**
 * Stores one agent's override, replacing the previous one; for a name no agent has, an override with a prompt and
 * a mode adds an agent of the user's own (an empty override removes it again). The model must be one of the
 * configured providers' models; build and the hidden agents can't be disabled. Answers with the updated list.
 */
export async function saveAgentSettings(context: StoreContext, input: AgentSettingsInput, files: readonly AgentFile[] = []): Promise<AgentSummary[]> {
  const name = String(input?.name ?? '')
  const known = projectAgents(files)
  const parsed = AgentOverrideSchema.safeParse(input?.override ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(issue?.path.map(String).join('.') || 'override', `Invalid settings for ${name}: ${describeIssues(parsed.error)}`)
  }
  const override = compact(parsed.data)
  const { db } = context
  return write(context, [db.providers, db.settings], async () => {
    const providers = await loadProviders(db)
    const overrides = await overridesIn(db)
    const agent = Object.hasOwn(known, name) ? known[name] : undefined
    const own = !agent && Object.hasOwn(overrides, name) && definesAgent(overrides[name]!)
    if (!agent && !own && !Object.keys(override).length) throw new NotFoundError('agent', name)
    if (!agent && Object.keys(override).length) assertOwnAgent(name, override)
    if (agent && override.disabled && !canDisable(agent)) {
      throw new InputError('disabled', `The ${agent.name} agent can't be disabled: tabcode needs it.`)
    }
    if (override.model) assertConfigured(providers, override.model)
    if (Object.keys(override).length) overrides[name] = override
    else delete overrides[name]
    await db.settings.put({ key: SETTING_KEY, value: overrides })
    return summaries(overrides, providers, files)
  })
}

/** A new agent needs a usable name, a prompt and a mode; the form asks for each. */
function assertOwnAgent(name: string, override: AgentOverride): void {
  if (!AGENT_NAME.test(name)) {
    throw new InputError('name', 'An agent\'s name is letters, digits, - and _ (up to 64), starting with a letter or digit.')
  }
  if (!override.prompt?.trim()) throw new InputError('prompt', `The ${name} agent needs a prompt: what it is told to do.`)
  if (!override.mode) throw new InputError('mode', `The ${name} agent needs a mode: primary, subagent or both.`)
}

function summaries(overrides: AgentOverrides, providers: ProviderConfig[], files: readonly AgentFile[]): AgentSummary[] {
  const effective = usable(overrides, providers)
  return Object.values(withOwnAgents(projectAgents(files), overrides)).map((agent) => {
    const override = Object.hasOwn(overrides, agent.name) ? overrides[agent.name]! : {}
    const resolved = applyOverride(agent, Object.hasOwn(effective, agent.name) ? effective[agent.name] : undefined)
    const model = resolved.model && namedModel(resolved.model, providers)
    return {
      name: agent.name,
      description: resolved.description,
      mode: resolved.mode,
      source: agent.source ?? 'built-in',
      ...(agent.path ? { path: agent.path } : {}),
      hidden: agent.hidden ?? false,
      disabled: !!override.disabled && canDisable(agent),
      canDisable: canDisable(agent),
      // A project file's `provider/model` counts only when a provider configured here offers that model.
      ...(model ? { model } : {}),
      ...(resolved.steps !== undefined ? { steps: resolved.steps } : {}),
      ...(resolved.temperature !== undefined ? { temperature: resolved.temperature } : {}),
      prompt: resolved.prompt,
      defaultPrompt: agent.prompt,
      permission: resolved.permission,
      override,
    }
  })
}

/** The overrides without model references that no configured provider offers any more. */
function usable(overrides: AgentOverrides, providers: ProviderConfig[]): AgentOverrides {
  const result: AgentOverrides = {}
  for (const [name, override] of Object.entries(overrides)) {
    const { model, ...rest } = override
    result[name] = model && isConfigured(providers, model) ? override : rest
  }
  return result
}

function isConfigured(providers: ProviderConfig[], reference: ModelReference): boolean {
  const provider = providers.find((config) => config.id === reference.providerID)
  return !!provider && hasModel(provider, reference.modelID)
}

function assertConfigured(providers: ProviderConfig[], reference: ModelReference): void {
  const provider = providers.find((config) => config.id === reference.providerID)
  if (!provider) {
    throw new InputError('model', `The agent's model must belong to a configured provider; ${reference.providerID} is not one.`)
  }
  if (!hasModel(provider, reference.modelID)) {
    throw new InputError('model', `The agent's model must be one of ${provider.name}'s models; “${reference.modelID}” is not.`)
  }
}

/** Drops what means "keep the built-in value": a blank prompt, no extra rules, not disabled. */
function compact(override: AgentOverride): AgentOverride {
  return {
    ...(override.description?.trim() ? { description: override.description.trim() } : {}),
    ...(override.mode ? { mode: override.mode } : {}),
    ...(override.model ? { model: override.model } : {}),
    ...(override.prompt?.trim() ? { prompt: override.prompt } : {}),
    ...(override.steps !== undefined ? { steps: override.steps } : {}),
    ...(override.temperature !== undefined ? { temperature: override.temperature } : {}),
    ...(override.permission?.length ? { permission: override.permission } : {}),
    ...(override.disabled ? { disabled: true } : {}),
  }
}
