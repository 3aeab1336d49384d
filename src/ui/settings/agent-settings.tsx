import { createSignal, createUniqueId, For, onMount, Show, type Accessor, type JSX } from 'solid-js'
import { createStore } from 'solid-js/store'
import type { AgentMode } from '../../core/agent'
import type { AgentOverride, PermissionRule } from '../../core/schema'

type PermissionAction = PermissionRule['action']
import type { AgentFileProblem, AgentSettingsInput, AgentSummary, ClientApi, ProviderSummary } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { PencilIcon, PlusIcon, TrashIcon } from '../kit/icons/icons'
import { describeSettings, draftOf, editableAgents, inheritedRules, isOwnAgent, MAX_STEPS, overrideOf, type AgentDraft, type DraftField } from './agent-settings-draft'
import { ModelSelect } from './model-picker'
import './agent-settings.css'
import { createNewestAnswer } from '../kit/load/newest-answer'

export type AgentSettingsApi = Pick<ClientApi, 'listAgents' | 'saveAgentSettings' | 'listAgentFileProblems'>

export interface AgentSettingsStore {
  agents: Accessor<AgentSummary[]>
  /** The project's agent files that cannot be used, with what is wrong. */
  problems: Accessor<AgentFileProblem[]>
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
  const [problems, setProblems] = createSignal<AgentFileProblem[]>([])
  const [loading, setLoading] = createSignal(true)
  const [error, setError] = createSignal<string>()
  const newest = createNewestAnswer()

  async function refresh() {
    await newest.load(() => Promise.all([api.listAgents(), api.listAgentFileProblems()]), {
      answer: ([next, broken]) => {
        setAgents(next)
        setProblems(broken)
        setError(undefined)
      },
      failure: (caught) => setError(`Couldn't load agents: ${errorMessage(caught)}`),
      settled: () => setLoading(false),
    })
  }
  void refresh()

  return {
    agents,
    problems,
    loading,
    error,
    refresh,
    async save(input) {
      const next = await api.saveAgentSettings(input)
      newest.supersede()
      setAgents(next)
      setLoading(false)
      return next
    },
  }
}

const modeLabel = (agent: AgentSummary) => (agent.mode === 'subagent' ? 'subagent' : agent.mode === 'all' ? 'primary and subagent' : 'primary')

/** The settings overview's list of agents, each with what was changed about it and an edit button. */
/** Where an agent comes from, for its row: nothing for a built-in one the user may change. */
function originLabel(agent: AgentSummary): string | undefined {
  if (agent.source === 'settings') return 'added in Settings'
  if (agent.source === 'project') return `project file ${agent.path ?? ''}`.trim()
  if (agent.path) return `changed by project file ${agent.path}`
  return undefined
}

export function AgentSection(props: {
  store: AgentSettingsStore
  providers: ProviderSummary[]
  onEdit: (agent: AgentSummary) => void
  onAdd: () => void
}): JSX.Element {
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  const problemsID = createUniqueId()
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
                    <Show when={originLabel(agent)}>{(origin) => <span class="badge agent-origin">{origin()}</span>}</Show>
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
      <Show when={props.store.problems().length}>
        <h4 id={problemsID} class="settings-subheading">
          Agent files that cannot be used
        </h4>
        <ul class="agent-problems" aria-labelledby={problemsID}>
          <For each={props.store.problems()}>{(entry) => <li class="problem mono">{entry.problem}</li>}</For>
        </ul>
      </Show>
      <button type="button" class="button button-small agent-add" onClick={() => props.onAdd()}>
        <PlusIcon /> Add agent
      </button>
    </section>
  )
}

/**
 * Edits one agent's overrides: model, prompt, step limit, temperature, whether it is offered at all, and the user's
 * own permission rules (after the agent's, which are shown read-only). Empty fields follow the agent's own values.
 * For an agent the user adds (`isNew`), or one added before, its name (new only), description and mode too.
 */
export function AgentForm(props: {
  agent: AgentSummary
  isNew?: boolean
  providers: ProviderSummary[]
  onSave: (override: AgentOverride, name: string) => Promise<void>
  onCancel: () => void
}): JSX.Element {
  const ids = {
    heading: createUniqueId(),
    name: createUniqueId(),
    description: createUniqueId(),
    mode: createUniqueId(),
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
  const [problem, setProblem] = createSignal<{ field?: DraftField; message: string }>()
  const [saving, setSaving] = createSignal(false)
  const own = () => isOwnAgent(props.agent)
  const fromFile = () => props.agent.source === 'project'
  const subagent = () => (own() ? draft.mode : props.agent.mode) === 'subagent'
  const follows = () => (subagent() ? "Same as the calling agent's model" : 'Same as the prompt box')
  const fields: Partial<Record<DraftField, HTMLElement>> = {}
  let promptInput!: HTMLTextAreaElement
  const promptRef = (element: HTMLTextAreaElement) => {
    promptInput = element
    fields.prompt = element
  }
  let heading!: HTMLHeadingElement
  onMount(() => heading.focus())

  async function save(override: AgentOverride) {
    setSaving(true)
    setProblem(undefined)
    try {
      await props.onSave(override, props.isNew ? draft.name.trim() : props.agent.name)
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
        {props.isNew ? 'New agent' : `Agent: ${props.agent.name}`} <Show when={!props.isNew}><span class="badge">{modeLabel(props.agent)}</span></Show>
      </h3>
      <Show when={!own()}>
        <p class="field-hint">{props.agent.description}</p>
      </Show>
      <Show when={props.agent.path}>
        <p class="field-hint">{`Defined in the project file ${props.agent.path}; what you set here goes after it and wins.`}</p>
      </Show>
      <div class="form-grid">
        <Show when={props.isNew}>
          <div class="field">
            <label class="field-label" for={ids.name}>
              Name
            </label>
            <input
              id={ids.name}
              ref={(element) => (fields.name = element)}
              class="text-input"
              autocomplete="off"
              spellcheck={false}
              aria-invalid={problem()?.field === 'name' ? 'true' : undefined}
              value={draft.name}
              onInput={(event) => setDraft('name', event.currentTarget.value)}
            />
          </div>
        </Show>
        <Show when={own()}>
          <div class="field">
            <label class="field-label" for={ids.mode}>
              Mode
            </label>
            <select id={ids.mode} class="text-input" value={draft.mode} onChange={(event) => setDraft('mode', event.currentTarget.value as AgentMode)}>
              <option value="primary">Primary: picked in the prompt box</option>
              <option value="subagent">Subagent: started by another agent, or with @</option>
              <option value="all">Both</option>
            </select>
          </div>
          <div class="field field-wide">
            <label class="field-label" for={ids.description}>
              Description
            </label>
            <input
              id={ids.description}
              class="text-input"
              value={draft.description}
              onInput={(event) => setDraft('description', event.currentTarget.value)}
            />
          </div>
        </Show>
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
            ref={promptRef}
            class="text-input agent-prompt-input"
            rows={6}
            placeholder={own() ? 'What this agent is told to do' : fromFile() ? "The file's prompt (below)" : 'The built-in prompt (below)'}
            aria-describedby={ids.promptHint}
            value={draft.prompt}
            onInput={(event) => setDraft('prompt', event.currentTarget.value)}
          />
          <p id={ids.promptHint} class="field-hint">
            Replaces the agent's built-in instructions. The environment, the project's AGENTS.md and mode reminders are
            still added after it. Empty: the built-in prompt.
          </p>
          <Show when={!own()}>
          <details class="agent-builtin-prompt">
            <summary>{fromFile() ? "The project file's prompt" : 'Built-in prompt'}</summary>
            <pre class="mono">{props.agent.defaultPrompt}</pre>
            <button
              type="button"
              class="button button-small"
              onClick={() => {
                setDraft('prompt', props.agent.defaultPrompt)
                promptInput.focus()
              }}
            >
              {fromFile() ? "Edit a copy of the file's prompt" : 'Edit a copy of the built-in prompt'}
            </button>
          </details>
          </Show>
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

      <PermissionRules
        id={ids.rules}
        agent={props.agent}
        rules={draft.rules}
        invalid={problem()?.field === 'rules'}
        onAdd={() => setDraft('rules', (rules) => [...rules, { permission: '', pattern: '*', action: 'ask' }])}
        onChange={(index, rule) => setDraft('rules', index, rule)}
        onRemove={(index) => setDraft('rules', (rules) => rules.filter((_, at) => at !== index))}
        fieldRef={(element) => (fields.rules = element)}
      />

      <Show when={problem()}>
        {(current) => (
          <p class="connection-notice connection-alert" role="alert">
            {current().message}
          </p>
        )}
      </Show>
      <div class="dialog-actions">
        <Show when={customized() && !props.isNew}>
          <button type="button" class="button agent-reset" disabled={saving()} onClick={() => void save({})}>
            {own() ? 'Remove agent' : 'Restore built-in settings'}
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

const ACTIONS: readonly PermissionAction[] = ['allow', 'ask', 'deny']

/**
 * The agent's permission rules in the order they are checked (the last rule whose permission and pattern match
 * decides): its own, read-only, then the user's, which can be added, changed and removed, and are saved with the form.
 */
function PermissionRules(props: {
  id: string
  agent: AgentSummary
  rules: readonly { permission: string; pattern: string; action: PermissionAction }[]
  invalid: boolean
  onAdd: () => void
  onChange: (index: number, rule: Partial<{ permission: string; pattern: string; action: PermissionAction }>) => void
  onRemove: (index: number) => void
  fieldRef: (element: HTMLElement) => void
}): JSX.Element {
  const captionID = createUniqueId()
  const ownID = createUniqueId()
  let addButton!: HTMLButtonElement
  return (
    <section class="agent-rules" aria-labelledby={props.id}>
      <h4 id={props.id} class="settings-subheading">
        Permission rules
      </h4>
      <p id={captionID} class="field-hint">
        For each tool call the last rule whose permission and pattern match decides: allow, ask or deny. Your rules
        come after the agent's, so they win.
      </p>
      <Show when={inheritedRules(props.agent).length}>
        {/* Focusable so the keyboard can scroll a long list. */}
        <div class="agent-rules-scroll" tabindex="0" role="region" aria-label="The agent's rules" aria-describedby={captionID}>
          <table class="agent-rules-table">
            <thead>
              <tr>
                <th scope="col">Permission</th>
                <th scope="col">Pattern</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              <For each={inheritedRules(props.agent)}>
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
      </Show>
      <h5 id={ownID} class="settings-subheading agent-own-rules">
        Your rules
      </h5>
      <Show when={props.rules.length} fallback={<p class="field-hint">None yet.</p>}>
        <ul class="agent-rule-editor" aria-labelledby={ownID}>
          <For each={props.rules}>
            {(rule, index) => (
              <li class="agent-rule-row">
                <input
                  ref={(element) => index() === 0 && props.fieldRef(element)}
                  class="text-input mono"
                  aria-label={`Rule ${index() + 1} permission`}
                  placeholder="edit, bash, * …"
                  spellcheck={false}
                  aria-invalid={props.invalid && !rule.permission.trim() ? 'true' : undefined}
                  value={rule.permission}
                  onInput={(event) => props.onChange(index(), { permission: event.currentTarget.value })}
                />
                <input
                  class="text-input mono"
                  aria-label={`Rule ${index() + 1} pattern`}
                  spellcheck={false}
                  aria-invalid={props.invalid && !rule.pattern.trim() ? 'true' : undefined}
                  value={rule.pattern}
                  onInput={(event) => props.onChange(index(), { pattern: event.currentTarget.value })}
                />
                <select
                  class="text-input"
                  aria-label={`Rule ${index() + 1} action`}
                  value={rule.action}
                  onChange={(event) => props.onChange(index(), { action: event.currentTarget.value as PermissionAction })}
                >
                  <For each={ACTIONS}>{(action) => <option value={action}>{action}</option>}</For>
                </select>
                <button
                  type="button"
                  class="icon-button"
                  aria-label={`Remove rule ${index() + 1}`}
                  title="Remove"
                  onClick={() => {
                    props.onRemove(index())
                    addButton.focus()
                  }}
                >
                  <TrashIcon />
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <button type="button" ref={addButton} class="button button-small agent-add-rule" onClick={() => props.onAdd()}>
        <PlusIcon /> Add rule
      </button>
    </section>
  )
}
