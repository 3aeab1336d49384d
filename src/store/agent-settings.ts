import { hasModel, loadProviders } from './provider-store'
import type { ProviderConfig } from '../core/provider/schema'
import { AGENTS, applyOverride, canDisable, resolveAgents, agentNamed, type Agent, type AgentMode } from '../core/agent'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { describeIssues, InputError, NotFoundError } from '../core/errors'
import {
  AgentOverrideSchema,
  type AgentOverride,
  type AgentOverrides,
  type ModelReference,
  type PermissionRule,
} from '../core/schema'

import type { AgentSettingsInput, AgentSummary } from '../core/dto/agents'

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
 * The agents in effect: the built-in ones under the stored overrides. A model override whose provider or model was
 * removed since is left out, so the agent follows the prompt box's model instead of failing every turn.
 */
export async function loadAgents(context: StoreContext): Promise<Record<string, Agent>> {
  const [overrides, providers] = await Promise.all([readAgentOverrides(context), loadProviders(context.db)])
  return resolveAgents(usable(overrides, providers))
}

/** The agent a turn runs with: `name` under the stored overrides, else the default agent. */
export async function agentFor(context: StoreContext, name: string): Promise<Agent> {
  return agentNamed(name, await loadAgents(context))
}

/** Every built-in agent, disabled ones included, for pickers (which filter) and the settings screen. */
export async function listAgentSummaries(context: StoreContext): Promise<AgentSummary[]> {
  const [overrides, providers] = await Promise.all([readAgentOverrides(context), loadProviders(context.db)])
  return summaries(overrides, providers)
}

/**
 * Stores one agent's override, replacing the previous one. The model must be one of the configured providers'
 * models; build and the hidden agents can't be disabled. Answers with the updated list.
 */
export async function saveAgentSettings(context: StoreContext, input: AgentSettingsInput): Promise<AgentSummary[]> {
  const agent = Object.hasOwn(AGENTS, input?.name) ? AGENTS[input.name] : undefined
  if (!agent) throw new NotFoundError('agent', String(input?.name))
  const parsed = AgentOverrideSchema.safeParse(input.override ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(issue?.path.map(String).join('.') || 'override', `Invalid settings for ${agent.name}: ${describeIssues(parsed.error)}`)
  }
  const override = compact(parsed.data)
  if (override.disabled && !canDisable(agent)) {
    throw new InputError('disabled', `The ${agent.name} agent can't be disabled: tabcode needs it.`)
  }
  const { db } = context
  return db.transaction('rw', db.providers, db.settings, async () => {
    const providers = await loadProviders(db)
    if (override.model) assertConfigured(providers, override.model)
    const overrides = await overridesIn(db)
    if (Object.keys(override).length) overrides[agent.name] = override
    else delete overrides[agent.name]
    await db.settings.put({ key: SETTING_KEY, value: overrides })
    return summaries(overrides, providers)
  })
}

function summaries(overrides: AgentOverrides, providers: ProviderConfig[]): AgentSummary[] {
  const effective = usable(overrides, providers)
  return Object.values(AGENTS).map((agent) => {
    const override = Object.hasOwn(overrides, agent.name) ? overrides[agent.name]! : {}
    const resolved = applyOverride(agent, Object.hasOwn(effective, agent.name) ? effective[agent.name] : undefined)
    return {
      name: agent.name,
      description: agent.description,
      mode: agent.mode,
      hidden: agent.hidden ?? false,
      disabled: !!override.disabled && canDisable(agent),
      canDisable: canDisable(agent),
      ...(resolved.model ? { model: resolved.model } : {}),
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
    ...(override.model ? { model: override.model } : {}),
    ...(override.prompt?.trim() ? { prompt: override.prompt } : {}),
    ...(override.steps !== undefined ? { steps: override.steps } : {}),
    ...(override.temperature !== undefined ? { temperature: override.temperature } : {}),
    ...(override.permission?.length ? { permission: override.permission } : {}),
    ...(override.disabled ? { disabled: true } : {}),
  }
}
