import { createUniqueId, For } from 'solid-js'
import { CloseIcon } from '../kit/icons/icons'
import { sourceNote, tierNote, type ModelDraft } from './provider-draft'

const LIMIT_FIELDS = [
  { field: 'context', label: 'Context limit', unit: 'tokens' },
  { field: 'output', label: 'Output limit', unit: 'tokens' },
] as const

const PRICE_FIELDS = [
  { field: 'inputPrice', label: 'Input price' },
  { field: 'outputPrice', label: 'Output price' },
  { field: 'cacheReadPrice', label: 'Cache read price' },
  { field: 'cacheWritePrice', label: 'Cache write price' },
] as const

/** One chosen model: its limits and four prices. Each input's name ends with the model id, so names stay unique. */
export function ModelCard(props: {
  model: ModelDraft
  /** Missing limits are marked as errors only once the user tried to save: before, they are a request, not a fault. */
  flagMissing: boolean
  onEdit: (field: keyof ModelDraft, value: string) => void
  onRemove: () => void
}) {
  const noteID = createUniqueId()
  const missing = () => !props.model.context.trim() || !props.model.output.trim()
  const flagged = () => props.flagMissing && missing()
  return (
    <fieldset class="model-card" classList={{ 'model-card-missing': flagged() }} aria-describedby={noteID}>
      <legend class="mono">{props.model.id}</legend>
      <button type="button" class="icon-button model-remove" aria-label={`Remove model ${props.model.id}`} onClick={() => props.onRemove()}>
        <CloseIcon />
      </button>
      <div class="model-fields">
        <For each={LIMIT_FIELDS}>
          {(spec) => (
            <label class="model-field">
              <span>
                {spec.label}
                <span class="visually-hidden">{` for ${props.model.id}`}</span>
              </span>
              <input
                class="text-input"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                placeholder={spec.unit}
                aria-invalid={flagged() && !props.model[spec.field].trim() ? 'true' : undefined}
                value={props.model[spec.field]}
                onInput={(event) => props.onEdit(spec.field, event.currentTarget.value)}
              />
            </label>
          )}
        </For>
        <For each={PRICE_FIELDS}>
          {(spec) => (
            <label class="model-field">
              <span>
                {spec.label}
                <span class="visually-hidden">{` for ${props.model.id}, dollars per million tokens`}</span>
              </span>
              <input
                class="text-input"
                type="text"
                inputmode="decimal"
                autocomplete="off"
                placeholder="$ / 1M"
                value={props.model[spec.field]}
                onInput={(event) => props.onEdit(spec.field, event.currentTarget.value)}
              />
            </label>
          )}
        </For>
      </div>
      <p id={noteID} class="field-hint" classList={{ problem: flagged() }}>
        {missing() ? 'Not in the model facts: enter its context and output limits.' : [sourceNote(props.model), tierNote(props.model)].filter(Boolean).join(' ')}
      </p>
    </fieldset>
  )
}
