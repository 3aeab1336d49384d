import { createSignal, createUniqueId, For, onMount, Show, type JSX } from 'solid-js'
import { createStore } from 'solid-js/store'
import type { AgentMode } from '../../core/agent'
import type { AgentOverride } from '../../core/schema'
import type { AgentSummary, ProviderSummary } from '../../core/protocol'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { errorMessage } from '../kit/format/error'
import { Checkbox } from '../kit/form/checkbox'
import { Field, SelectField, TextField } from '../kit/form/field'
import { draftOf, isOwnAgent, MAX_STEPS, modeLabel, overrideOf, type AgentDraft, type DraftField } from './agent-settings-draft'
import { PermissionRules } from './permission-rules'
import { ModelSelect } from './model-picker'
import './agent-settings.css'

/** The agent's two number fields; empty follows the agent's own value. */
const NUMBER_FIELDS = [
  {
    field: 'steps',
    label: 'Step limit',
    hint: 'Most model calls in one turn; the last one must answer without tools. Empty: no limit.',
    min: '1',
    max: String(MAX_STEPS),
    step: '1',
    placeholder: 'No limit',
  },
  {
    field: 'temperature',
    label: 'Temperature',
    hint: "From 0 (focused) to 2 (varied), for models that accept one. Empty: the model's default.",
    min: '0',
    max: '2',
    step: '0.1',
    placeholder: 'Model default',
  },
] as const

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
  const ids = { heading: createUniqueId(), enabled: createUniqueId(), enabledHint: createUniqueId(), rules: createUniqueId() }
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

  const invalid = (field: DraftField) => (problem()?.field === field ? 'true' : undefined)
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
          <TextField
            label="Name"
            ref={(element: HTMLInputElement) => (fields.name = element)}
            autocomplete="off"
            spellcheck={false}
            aria-invalid={invalid('name')}
            value={draft.name}
            onValue={(value) => setDraft('name', value)}
          />
        </Show>
        <Show when={own()}>
          <SelectField label="Mode" selectClass="text-input" value={draft.mode} onValue={(value) => setDraft('mode', value as AgentMode)}>
            <option value="primary">Primary: picked in the prompt box</option>
            <option value="subagent">Subagent: started by another agent, or with @</option>
            <option value="all">Both</option>
          </SelectField>
          <TextField wide label="Description" value={draft.description} onValue={(value) => setDraft('description', value)} />
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
        <For each={NUMBER_FIELDS}>
          {(spec) => (
            <TextField
              label={spec.label}
              hint={spec.hint}
              ref={(element: HTMLInputElement) => (fields[spec.field] = element)}
              inputClass="agent-number"
              type="number"
              min={spec.min}
              max={spec.max}
              step={spec.step}
              placeholder={spec.placeholder}
              aria-invalid={invalid(spec.field)}
              value={draft[spec.field]}
              onValue={(value) => setDraft(spec.field, value)}
            />
          )}
        </For>
        <Field
          wide
          label="Prompt"
          hint="Replaces the agent's built-in instructions. The environment, the project's AGENTS.md and mode reminders are still added after it. Empty: the built-in prompt."
          below={
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
          }
        >
          {(control) => (
            <textarea
              id={control.id}
              ref={promptRef}
              class="text-input agent-prompt-input"
              rows={6}
              placeholder={own() ? 'What this agent is told to do' : fromFile() ? "The file's prompt (below)" : 'The built-in prompt (below)'}
              aria-describedby={control.hintID}
              value={draft.prompt}
              onInput={(event) => setDraft('prompt', event.currentTarget.value)}
            />
          )}
        </Field>
        <Show when={props.agent.canDisable}>
          <div class="field field-wide agent-enabled">
            <Checkbox
              class="agent-checkbox"
              id={ids.enabled}
              describedBy={ids.enabledHint}
              label={<span>Enabled</span>}
              checked={draft.enabled}
              onChange={(checked) => setDraft('enabled', checked)}
            />
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
      <DialogActions cancelDisabled={saving()} onCancel={() => props.onCancel()} action={{ label: 'Save', tone: 'primary', disabled: saving() }}>
        <Show when={customized() && !props.isNew}>
          <button type="button" class="button agent-reset" disabled={saving()} onClick={() => void save({})}>
            {own() ? 'Remove agent' : 'Restore built-in settings'}
          </button>
        </Show>
      </DialogActions>
    </form>
  )
}
