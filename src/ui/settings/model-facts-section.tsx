import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import { factCount, MODEL_FACTS_URL } from '../../core/provider/model-facts'
import { TextField } from '../kit/form/field'
import { ProblemNote } from '../kit/form/problem-note'
import type { ModelFactsStore } from './create-model-facts'

/**
 * Settings → Model facts: which facts the provider form fills models in from (limits, prices, capabilities from
 * models.dev), and "Update model facts", which fetches the file only when pressed, from models.dev or a mirror.
 */
export function ModelFactsSection(props: { facts: ModelFactsStore }): JSX.Element {
  const headingID = createUniqueId()
  const [address, setAddress] = createSignal<string>()
  const shownAddress = () => address() ?? props.facts.view()?.url ?? MODEL_FACTS_URL
  const summary = () => {
    const view = props.facts.view()
    if (!view) return 'Loading the model facts…'
    const origin = view.facts.source === 'built-in' ? 'built into the app' : `fetched from ${view.facts.source}`
    return `Model facts from ${view.facts.date} (${origin}): ${factCount(view.facts)} models.`
  }
  const submit = (event: SubmitEvent) => {
    event.preventDefault()
    void props.facts.update(shownAddress().trim()).then(() => setAddress(undefined))
  }
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Model facts
      </h3>
      <p class="settings-note">{summary()}</p>
      <p class="field-hint">
        Context and output limits, prices and capabilities of known models, from models.dev. A model you add is filled
        in from them; models already saved keep their numbers.
      </p>
      <form class="model-facts-form" onSubmit={submit}>
        <TextField
          label="Model facts address"
          type="url"
          hint="Fetched only when you press Update model facts, never by itself. A mirror works too; only the models' facts are read from the file."
          value={shownAddress()}
          onValue={setAddress}
          mono
        />
        <button type="submit" class="button" disabled={props.facts.busy()}>
          {props.facts.busy() ? 'Updating model facts…' : 'Update model facts'}
        </button>
      </form>
      <Show when={props.facts.result()?.tone === 'status'}>
        <p role="status" class="settings-note">
          {props.facts.result()?.text}
        </p>
      </Show>
      <ProblemNote text={props.facts.result()?.tone === 'alert' ? props.facts.result()?.text : undefined} />
    </section>
  )
}
