import { createUniqueId, type JSX } from 'solid-js'
import type { Setting } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import type { ProviderStore } from './create-provider-store'

type CompactionKey = Extract<Setting, { value: boolean }>['key']

/**
 * How long sessions keep fitting the model's context: automatic compaction and clearing old tool outputs. Both are
 * on by default and both keep everything stored and visible; only what the model is sent changes.
 */
export function CompactionSettings(props: {
  store: Pick<ProviderStore, 'settings' | 'setSetting'>
  onNotice: (notice: { tone: 'status' | 'alert'; text: string }) => void
}): JSX.Element {
  const headingID = createUniqueId()
  const save = (key: CompactionKey, value: boolean, what: string) => {
    props.store.setSetting({ key, value }).then(
      () => props.onNotice({ tone: 'status', text: `${what} ${value ? 'on' : 'off'}.` }),
      (error: unknown) => props.onNotice({ tone: 'alert', text: errorMessage(error) }),
    )
  }
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Context
      </h3>
      <div class="settings-checks">
        <Check
          label="Compact automatically near the context limit"
          hint="When a session nears its model's context limit, its history is summarised and the summary goes to the model instead. The turns stay readable and the compaction can be undone. Off: a session that overflows stops with an error that offers what to do."
          checked={props.store.settings().compactionAuto}
          onChange={(value) => save('compaction.auto', value, 'Automatic compaction')}
        />
        <Check
          label="Clear old tool outputs for the model"
          hint="Outputs of tool calls older than the last turns are replaced by a placeholder in what the model is sent; they stay stored and shown here."
          checked={props.store.settings().compactionPrune}
          onChange={(value) => save('compaction.prune', value, 'Clearing old tool outputs')}
        />
      </div>
    </section>
  )
}

function Check(props: { label: string; hint: string; checked: boolean; onChange: (value: boolean) => void }): JSX.Element {
  const id = createUniqueId()
  const hintID = createUniqueId()
  return (
    <div class="settings-check">
      <input id={id} type="checkbox" checked={props.checked} aria-describedby={hintID} onChange={(event) => props.onChange(event.currentTarget.checked)} />
      <div>
        <label for={id}>{props.label}</label>
        <p id={hintID} class="field-hint">
          {props.hint}
        </p>
      </div>
    </div>
  )
}
