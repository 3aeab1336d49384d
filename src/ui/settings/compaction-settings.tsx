import { createSignal, createUniqueId, type JSX } from 'solid-js'
import type { Setting } from '../../core/schema'
import { DEFAULT_TAIL_TURNS, readPreserveRecentTokens, readTailTurns, TAIL_BUDGET_MAX, TAIL_BUDGET_MIN, TAIL_TURNS_MAX } from '../../core/compaction/tail-settings'
import { errorMessage } from '../kit/format/error'
import { TextField } from '../kit/form/field'
import type { ProviderStore } from './create-provider-store'

type CompactionKey = Extract<Setting, { value: boolean }>['key']

const count = (value: number) => value.toLocaleString('en-US')
/** Unsaved text that could not be saved, marked for screen readers as the alert names it. */
const invalid = (text: string | undefined, read: (text: string) => object) => text !== undefined && 'error' in read(text)

/**
 * How long sessions keep fitting the model's context: automatic compaction, clearing old tool outputs, and what a
 * compaction keeps word for word (opencode's `tail_turns` and `preserve_recent_tokens`). Everything stays stored and
 * visible; only what the model is sent changes. A number is saved when the field is left or Enter is pressed; one
 * that is not allowed is named in an alert and stays in the field to be corrected, and the stored value stands.
 */
export function CompactionSettings(props: {
  store: Pick<ProviderStore, 'settings' | 'setSetting'>
  onNotice: (notice: { tone: 'status' | 'alert'; text: string }) => void
}): JSX.Element {
  const headingID = createUniqueId()
  // What the user typed and has not saved yet; undefined shows the stored value.
  const [turnsText, setTurnsText] = createSignal<string>()
  const [tokensText, setTokensText] = createSignal<string>()
  const save = (key: CompactionKey, value: boolean, what: string) => {
    props.store.setSetting({ key, value }).then(
      () => props.onNotice({ tone: 'status', text: `${what} ${value ? 'on' : 'off'}.` }),
      (error: unknown) => props.onNotice({ tone: 'alert', text: errorMessage(error) }),
    )
  }
  const store = async (setting: Setting, saved: string, clear: () => void) => {
    try {
      await props.store.setSetting(setting)
      clear()
      props.onNotice({ tone: 'status', text: saved })
    } catch (error) {
      props.onNotice({ tone: 'alert', text: errorMessage(error) })
    }
  }
  const commitTurns = (text: string) => {
    const read = readTailTurns(text)
    if ('error' in read) return props.onNotice({ tone: 'alert', text: read.error })
    if (read.value === props.store.settings().compactionTailTurns) return setTurnsText(undefined)
    const saved = read.value === 0 ? 'A compaction now keeps no turns verbatim.' : `A compaction now keeps the last ${count(read.value)} turn${read.value === 1 ? '' : 's'} verbatim.`
    void store({ key: 'compaction.tailTurns', value: read.value }, saved, () => setTurnsText(undefined))
  }
  const commitTokens = (text: string) => {
    const read = readPreserveRecentTokens(text)
    if ('error' in read) return props.onNotice({ tone: 'alert', text: read.error })
    if (read.value === (props.store.settings().compactionPreserveRecentTokens ?? 'auto')) return setTokensText(undefined)
    const saved = read.value === 'auto' ? 'Token budget for kept turns: automatic.' : `Token budget for kept turns: ${count(read.value)}.`
    void store({ key: 'compaction.preserveRecentTokens', value: read.value }, saved, () => setTokensText(undefined))
  }
  const storedTokens = () => {
    const value = props.store.settings().compactionPreserveRecentTokens
    return value === undefined ? '' : String(value)
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
      <div class="form-grid compaction-tail">
        <TextField
          label="Recent turns kept verbatim"
          hint={`After a compaction, this many of the latest turns (a message of yours and the replies to it) go to the model word for word after the summary; older ones reach it only through the summary. 0 keeps none. Default ${DEFAULT_TAIL_TURNS}, at most ${count(TAIL_TURNS_MAX)}.`}
          inputClass="retry-input"
          type="text"
          inputMode="numeric"
          aria-invalid={invalid(turnsText(), readTailTurns)}
          value={turnsText() ?? String(props.store.settings().compactionTailTurns)}
          onValue={setTurnsText}
          onChange={(event) => commitTurns(event.currentTarget.value)}
        />
        <TextField
          label="Token budget for kept turns"
          hint={`The most tokens those turns may take; a turn that does not fit is kept in part, from its end, or left to the summary. Empty: automatic, a quarter of the model's usable context, from ${count(TAIL_BUDGET_MIN)} to ${count(TAIL_BUDGET_MAX)}. 0 keeps none.`}
          inputClass="retry-input"
          type="text"
          inputMode="numeric"
          placeholder="Automatic"
          aria-invalid={invalid(tokensText(), readPreserveRecentTokens)}
          value={tokensText() ?? storedTokens()}
          onValue={setTokensText}
          onChange={(event) => commitTokens(event.currentTarget.value)}
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
