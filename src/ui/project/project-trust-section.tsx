import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ProjectTrustStore } from './create-project-trust'
import { TrustProjectDialog } from './trust-project-dialog'
import { unreviewedText, withheldText } from './trust-text'

/** Settings' word on the open project's trust, and the way to give it or take it back. */
export function ProjectTrustSection(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal<'trust' | 'review'>()
  const headingID = createUniqueId()
  const hintID = createUniqueId()
  return (
    <section class="settings-section" aria-labelledby={headingID}>
      <h3 id={headingID} class="settings-heading">
        Project trust
      </h3>
      <p id={hintID} class="field-hint">
        {!props.trust.trusted()
          ? `${props.trust.name} is untrusted. ${withheldText(props.trust.withheld())}`
          : props.trust.unreviewed().length
            ? `You trust ${props.trust.name}. ${unreviewedText(props.trust.unreviewed().length)}`
            : `You trust ${props.trust.name}: the rules in its .opencode/agent and .opencode/command files apply, and an allow rule written into them later applies once you have reviewed it.`}
      </p>
      <div class="form-actions-inline">
        <Show when={props.trust.trusted() && props.trust.unreviewed().length}>
          <button type="button" class="button button-small" aria-describedby={hintID} onClick={() => setOpen('review')}>
            Review…
          </button>
        </Show>
        <button type="button" class="button button-small" aria-describedby={hintID} onClick={() => setOpen('trust')}>
          {props.trust.trusted() ? 'Stop trusting this project…' : 'Trust this project…'}
        </button>
      </div>
      <Show when={open()}>
        {(purpose) => <TrustProjectDialog trust={props.trust} review={purpose() === 'review'} onClose={() => setOpen()} />}
      </Show>
    </section>
  )
}
