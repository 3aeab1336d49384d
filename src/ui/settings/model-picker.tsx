import { createMemo, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js'
import type { ModelReference } from '../../core/schema'
import type { ProviderSummary } from '../../core/protocol'
import { Field } from '../kit/form/field'
import { formatPricePerMillion } from '../kit/format/usage'
import './model-picker.css'

export interface ModelOption {
  key: string
  label: string
  reference: ModelReference
  /** Its input and output price per million tokens ("$3 / $15 per M"), where it has one. */
  price?: string
}

export interface ModelOptionGroup {
  providerID: string
  label: string
  options: ModelOption[]
}

/** Provider ids never contain a slash (`prv_…`), so the first one splits a key back into its reference. */
export const referenceKey = (reference: ModelReference) => `${reference.providerID}/${reference.modelID}`

/** Options grouped by provider, labelled `provider / model` with its price, in the providers' and models' own order. */
export function modelOptionGroups(providers: readonly ProviderSummary[]): ModelOptionGroup[] {
  return providers
    .filter((provider) => provider.models.length > 0)
    .map((provider) => ({
      providerID: provider.id,
      label: provider.name,
      options: provider.models.map((model) => {
        const reference = { providerID: provider.id, modelID: model.id }
        const price = formatPricePerMillion(model.cost)
        return { key: referenceKey(reference), label: `${provider.name} / ${model.id}`, reference, ...(price ? { price } : {}) }
      }),
    }))
}

/** From this many models on (an OpenRouter key lists hundreds), the select gets a filter field. */
export const FILTER_FROM = 12

/** The groups with only the options whose label holds every word of `query` (any case); empty groups dropped. */
export function filterModelGroups(groups: readonly ModelOptionGroup[], query: string, keep?: string): ModelOptionGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...groups]
  return groups
    .map((group) => ({
      ...group,
      options: group.options.filter((option) => option.key === keep || words.every((word) => option.label.toLowerCase().includes(word))),
    }))
    .filter((group) => group.options.length > 0)
}

/**
 * A labelled select of every configured model, grouped by provider, with a filter field once there are many. A value that is no longer configured stays
 * visible as "unavailable" instead of silently showing another model.
 */
export function ModelSelect(props: {
  label: string
  value?: ModelReference
  onChange: (reference: ModelReference) => void
  providers: ProviderSummary[]
  /** Shown first and selected while there is no value (for example "Automatic"). */
  emptyLabel?: string
  description?: string
  id?: string
  disabled?: boolean
  class?: string
}): JSX.Element {
  const id = props.id ?? createUniqueId()
  const descriptionID = `${id}-description`
  const all = createMemo(() => modelOptionGroups(props.providers))
  const byKey = createMemo(() => new Map(all().flatMap((group) => group.options.map((option) => [option.key, option]))))
  const selected = () => (props.value ? referenceKey(props.value) : '')
  const [query, setQuery] = createSignal('')
  const filterable = () => byKey().size >= FILTER_FROM
  // The chosen model stays in the list whatever the filter, so the select never shows another one as chosen.
  const groups = createMemo(() => (filterable() ? filterModelGroups(all(), query(), selected()) : all()))
  const unavailable = () => (props.value && !byKey().has(selected()) ? props.value : undefined)
  const empty = () => all().length === 0
  return (
    <Field label={props.label} hint={props.description} class={props.class} id={id} hintID={descriptionID}>
      {(control) => (
        <>
          <Show when={filterable()}>
            <input
              type="search"
              class="text-input model-filter"
              aria-label={`Filter ${props.label.toLowerCase()} list`}
              aria-controls={id}
              placeholder="Filter models…"
              value={query()}
              onInput={(event) => setQuery(event.currentTarget.value)}
            />
          </Show>
          <select
            id={id}
            class="select"
            disabled={props.disabled || (empty() && !props.value)}
            aria-describedby={control.hintID}
            value={selected()}
            onChange={(event) => {
              const option = byKey().get(event.currentTarget.value)
              if (option) props.onChange(option.reference)
            }}
          >
            <Show when={!props.value}>
              <option value="" disabled={!props.emptyLabel} selected>
                {empty() ? 'No models yet: add a provider in Settings' : (props.emptyLabel ?? 'Choose a model')}
              </option>
            </Show>
            <Show when={unavailable()}>
              {(reference) => (
                <option value={selected()} selected>
                  {`${reference().modelID} (unavailable)`}
                </option>
              )}
            </Show>
            <For each={groups()}>
              {(group) => (
                <optgroup label={group.label}>
                  <For each={group.options}>
                    {(option) => (
                      <option value={option.key} selected={option.key === selected()}>
                        {option.price ? `${option.label} · ${option.price}` : option.label}
                      </option>
                    )}
                  </For>
                </optgroup>
              )}
            </For>
          </select>
        </>
      )}
    </Field>
  )
}

/** The prompt box's model choice: a select labelled "Model" with `provider / model` options. */
export function ModelPicker(props: {
  value?: ModelReference
  onChange(reference: ModelReference): void
  providers: ProviderSummary[]
  id?: string
  disabled?: boolean
  class?: string
}): JSX.Element {
  return (
    <ModelSelect
      label="Model"
      value={props.value}
      onChange={(reference) => props.onChange(reference)}
      providers={props.providers}
      id={props.id}
      disabled={props.disabled}
      class={`model-picker ${props.class ?? ''}`}
    />
  )
}
