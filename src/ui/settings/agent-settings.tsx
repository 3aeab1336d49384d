import { createSignal, createUniqueId, For, onMount, Show, type Accessor, type JSX } from 'solid-js'
import { createStore } from 'solid-js/store'
import type { AgentOverride } from '../../core/schema'
import type { AgentSettingsInput, AgentSummary, ClientApi, ProviderSummary } from '../../core/protocol'
import { errorMessage } from '../format/error'
import { PencilIcon } from '../icons/icons'
import { describeSettings, draftOf, editableAgents, MAX_STEPS, overrideOf, type AgentDraft } from './agent-settings-draft'
import { ModelSelect } from './model-picker'
import './agent-settings.css'

export type AgentSettingsApi = Pick<ClientApi, 'listAgents' | 'saveAgentSettings'>

export interface AgentSettingsStore {
  agents: Accessor<AgentSummary[]>
  loading: Accessor<boolean>
  /** Why the last load failed, worded for the user. */
  error: Accessor<string | undefined>
  refresh(): Promise<void>
  /** Throws the worker's named errors for the form to show; success replaces the list. */
  save(input: AgentSettingsInput): Promise<AgentSummary[]>
}

/** The agents as the settings screen sees them. Owner-bound; loaded on creation and after each save. */
export function createAgentSettings(api: AgentSettingsApi): AgentSettingsStore {
  const [agents, setAgents] = createSignal<AgentSummary[]>([])
  const [loading, setLoading] = createSignal(true)
  const [error, setError] = createSignal<string>()
  // A slow answer must not overwrite a newer one.
  let generation = 0

  async function refresh() {
    const mine = ++generation
    try {
      const next = await api.listAgents()
      if (mine !== generation) return
      setAgents(next)
      setError(undefined)
    } catch (caught) {
      if (mine === generation) setError(`Couldn't load agents: ${errorMessage(caught)}`)
    } finally {
      if (mine === generation) setLoading(false)
    }
  }
  void refresh()

  return {
    agents,
    loading,
    error,
    refresh,
    async save(input) {
      const next = await api.saveAgentSettings(input)
      generation++
      setAgents(next)
      setLoading(false)
      return next
    },
  }
}

const modeLabel = (agent: AgentSummary) => (agent.mode === 'subagent' ? 'subagent' : agent.mode === 'all' ? 'primary and subagent' : 'primary')

/** The settings overview's list of agents, each with what was changed about it and an edit button. */
export function AgentSection(props: { store: AgentSettingsStore; providers: ProviderSummary[]; onEdit: (agent: AgentSummary) => void }): JSX.Element {
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  const agents = () => editableAgents(props.store.agents())
  return (
    <section class="settings-section" aria-labelledby={headingID} aria-describedby={hintID}>
      <h3 id={headingID} class="settings-heading">
        Agents
      </h3>
      <p id={hintID} class="field-hint agent-section-hint">
        Primary agents are picked in the prompt box; subagents are started by another agent for a part of its task.
      </p>
      <Show when={props.store.error()}>
        <p class="problem" role="alert">
          {props.store.error()}
        </p>
      </Show>
      <Show when={agents().length} fallback={<p class="settings-empty">{props.store.loading() ? 'Loading agents…' : 'No agents.'}</p>}>
        <ul class="provider-list">
          <For each={agents()}>
            {(agent) => (
              <li class="provider-row" classList={{ 'agent-row-disabled': agent.disabled }}>
                <div class="provider-summary">
                  <span class="provider-name">
                    {agent.name} <span class="badge">{modeLabel(agent)}</span>
                  </span>
                  <span class="provider-meta" title={agent.description}>
                    {describeSettings(agent, props.providers)}
                  </span>
                </div>
                <button type="button" class="icon-button" aria-label={`Edit agent ${agent.name}`} title="Edit" onClick={() => props.onEdit(agent)}>
                  <PencilIcon />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  )
}

/**
 * Edits one agent's overrides: model, prompt, step limit, temperature, and whether it is offered at all. Its
 * permission rules are shown read-only. Empty fields follow the built-in agent.
 */
export function AgentForm(props: {
  agent: AgentSummary
  providers: ProviderSummary[]
  onSave: (override: AgentOverride) => Promise<void>
  onCancel: () => void
}): JSX.Element {
  const ids = {
    heading: createUniqueId(),
    prompt: createUniqueId(),
    promptHint: createUniqueId(),
    steps: createUniqueId(),
    stepsHint: createUniqueId(),
    temperature: createUniqueId(),
    temperatureHint: createUniqueId(),
    enabled: createUniqueId(),
    enabledHint: createUniqueId(),
    rules: createUniqueId(),
  }
  const [draft, setDraft] = createStore<AgentDraft>(draftOf(props.agent))
  const [problem, setProblem] = createSignal<{ field?: 'steps' | 'temperature'; message: string }>()
  const [saving, setSaving] = createSignal(false)
  const subagent = () => props.agent.mode === 'subagent'
  const follows = () => (subagent() ? "Same as the calling agent's model" : 'Same as the prompt box')
  const fields: Partial<Record<'steps' | 'temperature', HTMLInputElement>> = {}
  let promptInput!: HTMLTextAreaElement
  let heading!: HTMLHeadingElement
  onMount(() => heading.focus())

  async function save(override: AgentOverride) {
    setSaving(true)
    setProblem(undefined)
    try {
      await props.onSave(override)
    } catch (error) {
      setProblem({ message: errorMessage(error) })
    } finally {
      setSaving(false)
    }
  }

  function submit(event: SubmitEvent) {
    event.preventDefault()
    const result = overrideOf(draft, props.agent)
    if (!result.ok) {
      setProblem({ field: result.field, message: result.message })
      fields[result.field]?.focus()
      return
    }
    void save(result.override)
  }

  const customized = () => Object.keys(props.agent.override).length > 0

  return (
    <form class="provider-form agent-form" aria-labelledby={ids.heading} onSubmit={submit}>
      <h3 id={ids.heading} ref={heading} class="settings-heading" tabindex="-1">
        {`Agent: ${props.agent.name}`} <span class="badge">{modeLabel(props.agent)}</span>
      </h3>
      <p class="field-hint">{props.agent.description}</p>
      <div class="form-grid">
        <div class="field-wide agent-model">
          <ModelSelect
            label="Model"
            value={draft.model}
            providers={props.providers}
            emptyLabel={follows()}
            description={
              subagent()
                ? 'Empty: it runs with the model of the agent that started it.'
                : 'Empty: it runs with the model chosen in the prompt box. Choosing this agent there switches to its model.'
            }
            onChange={(reference) => setDraft('model', reference)}
          />
          <Show when={draft.model}>
            <button type="button" class="button-link" onClick={() => setDraft('model', undefined)}>
              {subagent() ? "Use the calling agent's model" : "Use the prompt box's model"}
            </button>
          </Show>
        </div>
        <div class="field">
          <label class="field-label" for={ids.steps}>
            Step limit
          </label>
          <input
            id={ids.steps}
            ref={(element) => (fields.steps = element)}
            class="text-input agent-number"
            type="number"
            min="1"
            max={MAX_STEPS}
            step="1"
            placeholder="No limit"
            aria-describedby={ids.stepsHint}
            aria-invalid={problem()?.field === 'steps' ? 'true' : undefined}
            value={draft.steps}
            onInput={(event) => setDraft('steps', event.currentTarget.value)}
          />
          <p id={ids.stepsHint} class="field-hint">
            Most model calls in one turn; the last one must answer without tools. Empty: no limit.
          </p>
        </div>
        <div class="field">
          <label class="field-label" for={ids.temperature}>
            Temperature
          </label>
          <input
            id={ids.temperature}
            ref={(element) => (fields.temperature = element)}
            class="text-input agent-number"
            type="number"
            min="0"
            max="2"
            step="0.1"
            placeholder="Model default"
            aria-describedby={ids.temperatureHint}
            aria-invalid={problem()?.field === 'temperature' ? 'true' : undefined}
            value={draft.temperature}
            onInput={(event) => setDraft('temperature', event.currentTarget.value)}
          />
          <p id={ids.temperatureHint} class="field-hint">
            From 0 (focused) to 2 (varied), for models that accept one. Empty: the model's default.
          </p>
        </div>
        <div class="field field-wide">
          <label class="field-label" for={ids.prompt}>
            Prompt
          </label>
          <textarea
            id={ids.prompt}
            ref={promptInput}
            class="text-input agent-prompt-input"
            rows={6}
            placeholder="The built-in prompt (below)"
            aria-describedby={ids.promptHint}
            value={draft.prompt}
            onInput={(event) => setDraft('prompt', event.currentTarget.value)}
          />
          <p id={ids.promptHint} class="field-hint">
            Replaces the agent's built-in instructions. The environment, the project's AGENTS.md and mode reminders are
            still added after it. Empty: the built-in prompt.
          </p>
          <details class="agent-builtin-prompt">
            <summary>Built-in prompt</summary>
            <pre class="mono">{props.agent.defaultPrompt}</pre>
            <button
              type="button"
              class="button button-small"
              onClick={() => {
                setDraft('prompt', props.agent.defaultPrompt)
                promptInput.focus()
              }}
            >
              Edit a copy of the built-in prompt
            </button>
          </details>
        </div>
        <Show when={props.agent.canDisable}>
          <div class="field field-wide agent-enabled">
            <label class="agent-checkbox">
              <input
                id={ids.enabled}
                type="checkbox"
                aria-describedby={ids.enabledHint}
                checked={draft.enabled}
                onChange={(event) => setDraft('enabled', event.currentTarget.checked)}
              />
              <span>Enabled</span>
            </label>
            <p id={ids.enabledHint} class="field-hint">
              {subagent() ? 'When off, agents can no longer start it.' : 'When off, the prompt box no longer offers it.'}
            </p>
          </div>
        </Show>
      </div>

      <PermissionRules id={ids.rules} agent={props.agent} />

      <Show when={problem()}>
        {(current) => (
          <p class="connection-notice connection-alert" role="alert">
            {current().message}
          </p>
        )}
      </Show>
      <div class="dialog-actions">
        <Show when={customized()}>
          <button type="button" class="button agent-reset" disabled={saving()} onClick={() => void save({})}>
            Restore built-in settings
          </button>
        </Show>
        <button type="button" class="button" disabled={saving()} onClick={() => props.onCancel()}>
          Cancel
        </button>
        <button type="submit" class="button button-primary" disabled={saving()}>
          Save
        </button>
      </div>
    </form>
  )
}

/** The agent's permission rules, read-only, in the order they are checked: the last matching rule decides. */
function PermissionRules(props: { id: string; agent: AgentSummary }): JSX.Element {
  const captionID = createUniqueId()
  return (
    <section class="agent-rules" aria-labelledby={props.id}>
      <h4 id={props.id} class="settings-subheading">
        Permission rules
      </h4>
      <p id={captionID} class="field-hint">
        Read-only. For each tool call the last rule whose permission and pattern match decides: allow, ask or deny.
      </p>
      {/* Focusable so the keyboard can scroll a long list. */}
      <div class="agent-rules-scroll" tabindex="0" role="region" aria-labelledby={props.id} aria-describedby={captionID}>
        <table class="agent-rules-table">
          <thead>
            <tr>
              <th scope="col">Permission</th>
              <th scope="col">Pattern</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.agent.permission}>
              {(rule) => (
                <tr>
                  <td class="mono">{rule.permission}</td>
                  <td class="mono">{rule.pattern}</td>
                  <td>
                    <span class={`badge agent-action-${rule.action}`}>{rule.action}</span>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </div>
    </section>
  )
}
