import type { AgentOverride, ModelReference } from '../../core/schema'
import type { AgentSummary, ProviderSummary } from '../../core/protocol'

export const MAX_STEPS = 10_000

/** The agent form's values as typed: numbers stay text until saved, so a half-typed value is never lost. */
export interface AgentDraft {
  model?: ModelReference
  prompt: string
  steps: string
  temperature: string
  enabled: boolean
}

export type DraftResult = { ok: true; override: AgentOverride } | { ok: false; field: 'steps' | 'temperature'; message: string }

/** The form's starting values: the stored override (empty fields follow the built-in agent). */
export function draftOf(agent: AgentSummary): AgentDraft {
  const override = agent.override
  return {
    ...(override.model ? { model: override.model } : {}),
    prompt: override.prompt ?? '',
    steps: override.steps === undefined ? '' : String(override.steps),
    temperature: override.temperature === undefined ? '' : String(override.temperature),
    enabled: !agent.disabled,
  }
}

/**
 * The override the form saves, or the first field that is wrong. Extra permission rules are not edited here and
 * are kept as they are.
 */
export function overrideOf(draft: AgentDraft, agent: AgentSummary): DraftResult {
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
  const permission = agent.override.permission
  return {
    ok: true,
    override: {
      ...(draft.model ? { model: draft.model } : {}),
      ...(draft.prompt.trim() ? { prompt: draft.prompt } : {}),
      ...(steps ? { steps: stepCount } : {}),
      ...(temperature ? { temperature: temperatureValue } : {}),
      ...(permission?.length ? { permission } : {}),
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
  const prompt = agent.override.prompt ? 'custom prompt' : 'built-in prompt'
  return [model, steps, prompt].join(' · ')
}

function modelLabel(reference: ModelReference, providers: readonly ProviderSummary[]): string {
  const provider = providers.find((candidate) => candidate.id === reference.providerID)
  return provider ? `${provider.name} / ${reference.modelID}` : reference.modelID
}
