import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ProjectTrustStore } from './create-project-trust'
import { TrustProjectDialog } from './trust-project-dialog'
import { withheldText } from './trust-text'

/** Settings' word on the open project's trust, and the way to give it or take it back. */
export function ProjectTrustSection(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Project trust
      </h3>
      <p id={hintID} class="field-hint">
        {props.trust.trusted()
          ? `You trust ${props.trust.name}: the rules in its .opencode/agent and .opencode/command files apply as written.`
          : `${props.trust.name} is untrusted. ${withheldText(props.trust.withheld())}`}
      </p>
      <button type="button" class="button button-small" aria-describedby={hintID} onClick={() => setOpen(true)}>
        {props.trust.trusted() ? 'Stop trusting this project…' : 'Trust this project…'}
      </button>
      <Show when={open()}>
        <TrustProjectDialog trust={props.trust} onClose={() => setOpen(false)} />
      </Show>
    </section>
  )
}
