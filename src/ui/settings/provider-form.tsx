import { createMemo, createSignal, createUniqueId, For, Index, onMount, Show, type JSX } from 'solid-js'
import { createStore, produce, reconcile } from 'solid-js/store'
import { ENDPOINT_PRESETS, PROVIDER_TYPE_INFO, providerTypeInfo, type EndpointPresetID } from '../../core/provider/presets'
import type { ProviderType } from '../../core/provider/schema'
import type { ClientApi, ConnectionResult, ProviderInput, ProviderSummary, RemoteModel } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { PlusIcon } from '../kit/icons/icons'
import {
  applyPreset,
  changeType,
  checkDraft,
  connectionInput,
  draftFromSummary,
  modelDraftFor,
  newDraft,
  presetOf,
  sameConnection,
  type ModelDraft,
  type ProviderDraft,
} from './provider-draft'
import { ModelCard } from './model-card'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { Field, SelectField, TextField } from '../kit/form/field'

/** How many remote models are rendered at once; OpenRouter lists hundreds, the filter narrows them. */
const REMOTE_LIST_LIMIT = 150

type Notice = { tone: 'status' | 'alert'; text: string }

export type ProviderFormApi = Pick<ClientApi, 'testConnection' | 'listRemoteModels'>

/** Adds or edits one provider: connection, key, models with their limits and prices. */
export function ProviderForm(props: {
  api: ProviderFormApi
  /** The stored provider when editing; absent when adding. */
  provider?: ProviderSummary
  /** Undefined once the model facts are in this thread's catalog, else a promise of that: a model added before waits. */
  factsReady?: () => Promise<void> | undefined
  onSave: (input: ProviderInput) => Promise<void>
  onCancel: () => void
}): JSX.Element {
  const ids = {
    heading: createUniqueId(),
    modelID: createUniqueId(),
    models: createUniqueId(),
  }
  const [draft, setDraft] = createStore<ProviderDraft>(props.provider ? draftFromSummary(props.provider) : newDraft())
  const [remote, setRemote] = createSignal<RemoteModel[]>()
  const [filter, setFilter] = createSignal('')
  const [newModelID, setNewModelID] = createSignal('')
  const [connection, setConnection] = createSignal<Notice>()
  const [problems, setProblems] = createSignal<string[]>([])
  // Set by the first save: from then on, missing limits are marked on their fields.
  const [triedSaving, setTriedSaving] = createSignal(false)
  const [busy, setBusy] = createSignal<'testing' | 'loading' | 'saving'>()

  let typeSelect!: HTMLSelectElement
  onMount(() => typeSelect.focus())
  const info = () => providerTypeInfo(draft.type)
  const compatible = () => draft.type === 'openai-compatible'
  const chosen = createMemo(() => new Set(draft.models.map((model) => model.id)))
  const replace = (next: ProviderDraft) => setDraft(reconcile(next))

  const filtered = createMemo(() => {
    const needle = filter().trim().toLowerCase()
    const list = remote() ?? []
    return needle ? list.filter((model) => model.id.toLowerCase().includes(needle) || model.name?.toLowerCase().includes(needle)) : list
  })

  const addModel = (id: string, known?: RemoteModel) => {
    const clean = id.trim()
    if (!clean || chosen().has(clean)) return
    const add = () => {
      if (chosen().has(clean)) return
      setDraft('models', (models) => [...models, modelDraftFor(draft.type, clean, known, draft.baseURL)])
    }
    const ready = props.factsReady?.()
    if (ready) void ready.then(add)
    else add()
  }
  const removeModel = (id: string) => setDraft('models', (models) => models.filter((model) => model.id !== id))
  const editModel = (index: number, field: keyof ModelDraft, value: string) =>
    setDraft(
      produce((current) => {
        const model = current.models[index]
        if (model) (model as unknown as Record<string, string>)[field] = value
      }),
    )

  const describeConnection = (result: ConnectionResult): Notice => {
    if (result.status === 'failed') return { tone: 'alert', text: result.message }
    const count = result.models.length
    return {
      tone: 'status',
      text: `Connected in ${result.latencyMs} ms. ${draft.name.trim() || info().label} lists ${count} model${count === 1 ? '' : 's'}.`,
    }
  }

  async function test() {
    setBusy('testing')
    setConnection({ tone: 'status', text: 'Testing the connection…' })
    try {
      const result = await props.api.testConnection(connectionInput(draft), draft.models[0]?.id)
      setConnection(describeConnection(result))
    } catch (error) {
      setConnection({ tone: 'alert', text: errorMessage(error) })
    } finally {
      setBusy(undefined)
    }
  }

  async function load() {
    setBusy('loading')
    setConnection({ tone: 'status', text: 'Loading models…' })
    try {
      // The stored provider can be asked directly; unsaved values go through the connection test. Either way the
      // worker adds what the server says about limits and prices (a local server's own API included).
      if (sameConnection(draft, props.provider)) {
        const models = await props.api.listRemoteModels(draft.id!)
        setRemote(models)
        setConnection({ tone: 'status', text: `${models.length} model${models.length === 1 ? '' : 's'} available.` })
      } else {
        const result = await props.api.testConnection(connectionInput(draft))
        if (result.status === 'ok') {
          setRemote(result.listed)
          setConnection({ tone: 'status', text: `${result.models.length} model${result.models.length === 1 ? '' : 's'} available.` })
        } else {
          setConnection(describeConnection(result))
        }
      }
    } catch (error) {
      setConnection({ tone: 'alert', text: errorMessage(error) })
    } finally {
      setBusy(undefined)
    }
  }

  async function save(event: SubmitEvent) {
    event.preventDefault()
    setTriedSaving(true)
    const check = checkDraft(draft)
    if (!check.ok) {
      setProblems(check.problems)
      return
    }
    setProblems([])
    setBusy('saving')
    try {
      await props.onSave(check.input)
    } catch (error) {
      setProblems([errorMessage(error)])
      setBusy(undefined)
    }
  }

  const keyDescription = () => {
    if (draft.removeKey) return 'The stored key will be removed when you save.'
    if (draft.hasKey) return 'A key is stored. Type a new one to replace it.'
    return info().needsKey ? 'Stored only in this browser and sent only to this provider.' : 'Optional: local servers usually need none.'
  }

  return (
    <form class="provider-form" aria-labelledby={ids.heading} onSubmit={(event) => void save(event)} novalidate>
      <h3 id={ids.heading} class="settings-heading">
        {props.provider ? `Edit ${props.provider.name}` : 'Add provider'}
      </h3>
      <div class="form-grid">
        <SelectField
          ref={(element) => (typeSelect = element)}
          label="Provider type"
          selectClass="select"
          value={draft.type}
          onValue={(value) => replace(changeType(draft, value as ProviderType))}
        >
          <For each={PROVIDER_TYPE_INFO}>{(type) => <option value={type.type}>{type.label}</option>}</For>
        </SelectField>
        <Show when={compatible()}>
          <SelectField label="Endpoint preset" selectClass="select" value={presetOf(draft)} onValue={(value) => replace(applyPreset(draft, value as EndpointPresetID | ''))}>
            <option value="">Custom</option>
            <For each={ENDPOINT_PRESETS}>{(preset) => <option value={preset.id}>{preset.label}</option>}</For>
          </SelectField>
        </Show>
        <TextField label="Name" value={draft.name} autocomplete="off" onValue={(value) => setDraft('name', value)} />
        <TextField
          wide
          mono
          label={`Base URL${compatible() ? '' : ' (optional)'}`}
          hint={
            compatible()
              ? 'The API root, usually ending in /v1. Ollama http://localhost:11434/v1 · LM Studio http://localhost:1234/v1 · llama.cpp http://localhost:8080/v1'
              : `Leave empty for ${info().defaultBaseURL}.`
          }
          type="url"
          inputmode="url"
          spellcheck={false}
          autocomplete="off"
          required={compatible()}
          placeholder={compatible() ? 'http://localhost:11434/v1' : info().defaultBaseURL}
          value={draft.baseURL}
          onValue={(value) => setDraft('baseURL', value)}
        />
        <Field wide label={`API key${info().needsKey ? '' : ' (optional)'}`} hint={keyDescription()}>
          {(control) => (
            <div class="key-row">
              <input
                id={control.id}
                class="text-input mono"
                type="password"
                autocomplete="off"
                spellcheck={false}
                aria-describedby={control.hintID}
                placeholder={draft.hasKey && !draft.removeKey ? '•••••••• (stored)' : info().keyPlaceholder}
                value={draft.apiKey}
                onInput={(event) => setDraft('apiKey', event.currentTarget.value)}
              />
              <Show when={draft.hasKey && !draft.removeKey}>
                <span class="badge badge-ok">Key stored</span>
                <button type="button" class="button button-small" onClick={() => setDraft({ removeKey: true, apiKey: '' })}>
                  Remove key
                </button>
              </Show>
              <Show when={draft.removeKey}>
                <button type="button" class="button button-small" onClick={() => setDraft('removeKey', false)}>
                  Keep key
                </button>
              </Show>
            </div>
          )}
        </Field>
      </div>

      <div class="form-actions-inline">
        <button type="button" class="button" disabled={!!busy()} aria-busy={busy() === 'testing'} onClick={() => void test()}>
          Test connection
        </button>
        <button type="button" class="button" disabled={!!busy()} aria-busy={busy() === 'loading'} onClick={() => void load()}>
          Load models
        </button>
      </div>
      <Show when={connection()}>
        {(notice) => (
          <p class={`connection-notice connection-${notice().tone}`} role={notice().tone}>
            {notice().text}
          </p>
        )}
      </Show>

      <Show when={remote()}>
        <fieldset class="remote-models">
          <legend>Available models</legend>
          <input
            type="search"
            class="text-input"
            aria-label="Filter models"
            placeholder={`Filter ${remote()!.length} models`}
            value={filter()}
            onInput={(event) => setFilter(event.currentTarget.value)}
          />
          <ul class="remote-list">
            <For each={filtered().slice(0, REMOTE_LIST_LIMIT)}>
              {(model) => (
                <li>
                  <label class="checkbox remote-model">
                    <input
                      type="checkbox"
                      checked={chosen().has(model.id)}
                      onChange={(event) => (event.currentTarget.checked ? addModel(model.id, model) : removeModel(model.id))}
                    />
                    <span class="mono">{model.id}</span>
                    <Show when={!model.known}>
                      <span class="faint">needs limits</span>
                    </Show>
                  </label>
                </li>
              )}
            </For>
          </ul>
          <Show when={filtered().length === 0}>
            <p class="field-hint">{remote()!.length ? 'No model matches the filter.' : 'The server lists no models; add them by id below.'}</p>
          </Show>
          <Show when={filtered().length > REMOTE_LIST_LIMIT}>
            <p class="field-hint">{`${filtered().length - REMOTE_LIST_LIMIT} more: type in the filter to narrow the list.`}</p>
          </Show>
        </fieldset>
      </Show>

      <section class="chosen-models" aria-labelledby={ids.models}>
        <h4 id={ids.models} class="settings-subheading">
          {`Models (${draft.models.length})`}
        </h4>
        <div class="add-model">
          <label class="field-label" for={ids.modelID}>
            Model ID
          </label>
          <input
            id={ids.modelID}
            class="text-input mono"
            placeholder={info().modelPlaceholder}
            spellcheck={false}
            autocomplete="off"
            value={newModelID()}
            onInput={(event) => setNewModelID(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return
              event.preventDefault()
              addModel(newModelID())
              setNewModelID('')
            }}
          />
          <button
            type="button"
            class="button"
            disabled={!newModelID().trim() || chosen().has(newModelID().trim())}
            onClick={() => {
              addModel(newModelID())
              setNewModelID('')
            }}
          >
            <PlusIcon />
            Add model
          </button>
        </div>
        <Show when={draft.models.length === 0}>
          <p class="field-hint">No models yet. Load them from the provider, or add one by its id.</p>
        </Show>
        <Index each={draft.models}>
          {(model, index) => (
            <ModelCard
              model={model()}
              flagMissing={triedSaving()}
              onEdit={(field, value) => editModel(index, field, value)}
              onRemove={() => removeModel(model().id)}
            />
          )}
        </Index>
      </section>

      <Show when={problems().length}>
        <div class="form-problems" role="alert">
          <For each={problems()}>{(problem) => <p>{problem}</p>}</For>
        </div>
      </Show>
      <DialogActions
        cancelDisabled={busy() === 'saving'}
        onCancel={() => props.onCancel()}
        action={{ label: 'Save', tone: 'primary', disabled: busy() === 'saving' }}
      />
    </form>
  )
}
