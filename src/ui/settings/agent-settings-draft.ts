import type { AgentMode } from '../../core/agent'
import type { AgentOverride, ModelReference, PermissionRule } from '../../core/schema'
import type { AgentSummary, ProviderSummary } from '../../core/protocol'

export const MAX_STEPS = 10_000

/** The agent form's values as typed: numbers stay text until saved, so a half-typed value is never lost. */
export interface AgentDraft {
  /** Only typed for a new agent; an existing one keeps its name. */
  name: string
  description: string
  mode: AgentMode
  model?: ModelReference
  prompt: string
  steps: string
  temperature: string
  enabled: boolean
  /** The user's own rules, after the agent's: the ones the form edits. */
  rules: PermissionRule[]
}

export type DraftField = 'name' | 'prompt' | 'steps' | 'temperature' | 'rules'
export type DraftResult = { ok: true; override: AgentOverride } | { ok: false; field: DraftField; message: string }

/** Whether the user added this agent in Settings: then its description, mode and prompt are theirs to set. */
/** The agent's mode in words, for its badge. */
export const modeLabel = (agent: AgentSummary) => (agent.mode === 'subagent' ? 'subagent' : agent.mode === 'all' ? 'primary and subagent' : 'primary')

export const isOwnAgent = (agent: AgentSummary) => agent.source === 'settings'

/** A new agent, before the user names it: a subagent (the common case for one written for a task) with no rules. */
export function newAgent(): AgentSummary {
  return {
    name: '',
    description: '',
    mode: 'subagent',
    source: 'settings',
    hidden: false,
    disabled: false,
    canDisable: false,
    prompt: '',
    defaultPrompt: '',
    permission: [],
    override: {},
  }
}

/** The form's starting values: the stored override (empty fields follow the agent's own values). */
export function draftOf(agent: AgentSummary): AgentDraft {
  const override = agent.override
  return {
    name: agent.name,
    description: isOwnAgent(agent) ? agent.description : '',
    mode: agent.mode,
    ...(override.model ? { model: override.model } : {}),
    prompt: override.prompt ?? '',
    steps: override.steps === undefined ? '' : String(override.steps),
    temperature: override.temperature === undefined ? '' : String(override.temperature),
    enabled: !agent.disabled,
    rules: (override.permission ?? []).map((rule) => ({ ...rule })),
  }
}

/** The rules that come before the user's: the defaults, the built-in agent's and the project file's, read-only. */
export function inheritedRules(agent: AgentSummary): PermissionRule[] {
  const own = agent.override.permission?.length ?? 0
  return agent.permission.slice(0, agent.permission.length - own)
}

const AGENT_NAME = /^[A-Za-z0-9][\w-]{0,63}$/

/** The override the form saves, or the first field that is wrong. */
export function overrideOf(draft: AgentDraft, agent: AgentSummary): DraftResult {
  const own = isOwnAgent(agent)
  if (own && !AGENT_NAME.test(draft.name.trim())) {
    return { ok: false, field: 'name', message: 'The name is letters, digits, - and _ (up to 64), starting with a letter or digit.' }
  }
  if (own && !draft.prompt.trim()) return { ok: false, field: 'prompt', message: 'An agent of your own needs a prompt: what it is told to do.' }
  const steps = draft.steps.trim()
  const stepCount = Number(steps)
  if (steps && (!Number.isInteger(stepCount) || stepCount < 1 || stepCount > MAX_STEPS)) {
    return { ok: false, field: 'steps', message: `The step limit must be a whole number from 1 to ${MAX_STEPS}, or empty for no limit.` }
  }
  const temperature = draft.temperature.trim()
  const temperatureValue = Number(temperature)
  if (temperature && (!Number.isFinite(temperatureValue) || temperatureValue < 0 || temperatureValue > 2)) {
    return { ok: false, field: 'temperature', message: "The temperature must be a number from 0 to 2, or empty for the model's default." }
  }
  const rules = draft.rules.map((rule) => ({ permission: rule.permission.trim(), pattern: rule.pattern.trim(), action: rule.action }))
  if (rules.some((rule) => !rule.permission || !rule.pattern)) {
    return { ok: false, field: 'rules', message: 'Each rule needs a permission (a tool name, or * for all) and a pattern (* for everything).' }
  }
  return {
    ok: true,
    override: {
      ...(own && draft.description.trim() ? { description: draft.description.trim() } : {}),
      ...(own ? { mode: draft.mode } : {}),
      ...(draft.model ? { model: draft.model } : {}),
      ...(draft.prompt.trim() ? { prompt: draft.prompt } : {}),
      ...(steps ? { steps: stepCount } : {}),
      ...(temperature ? { temperature: temperatureValue } : {}),
      ...(rules.length ? { permission: rules } : {}),
      ...(!draft.enabled && agent.canDisable ? { disabled: true } : {}),
    },
  }
}

/** The agents the prompt box offers: those a user runs directly (not subagents), visible and switched on. */
export function pickableAgents(agents: readonly AgentSummary[]): AgentSummary[] {
  return agents.filter((agent) => agent.mode !== 'subagent' && !agent.hidden && !agent.disabled)
}

/** The agents the settings screen lists: every one but tabcode's own hidden helpers. */
export function editableAgents(agents: readonly AgentSummary[]): AgentSummary[] {
  return agents.filter((agent) => !agent.hidden)
}

/** One line on what the user changed about an agent, for its row in the list. */
export function describeSettings(agent: AgentSummary, providers: readonly ProviderSummary[]): string {
  if (agent.disabled) return 'Disabled'
  const follows = agent.mode === 'subagent' ? "caller's model" : "prompt box's model"
  const model = agent.model ? modelLabel(agent.model, providers) : follows
  const steps = agent.steps === undefined ? 'no step limit' : `at most ${agent.steps} step${agent.steps === 1 ? '' : 's'}`
  const prompt = isOwnAgent(agent) ? 'own prompt' : agent.override.prompt ? 'custom prompt' : agent.source === 'project' ? 'prompt from its file' : 'built-in prompt'
  return [model, steps, prompt].join(' · ')
}

function modelLabel(reference: ModelReference, providers: readonly ProviderSummary[]): string {
  const provider = providers.find((candidate) => candidate.id === reference.providerID)
  return provider ? `${provider.name} / ${reference.modelID}` : reference.modelID
}
