import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ProjectTrustStore } from './create-project-trust'
import { TrustProjectDialog } from './trust-project-dialog'
import { withheldText } from './trust-text'
import './trust.css'

/** The sidebar's "Untrusted" marker under the project picker: what it withholds, and the way to trust the project. */
export function UntrustedMarker(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const noteID = createUniqueId()
  return (
    <Show when={!props.trust.trusted()}>
      <div class="untrusted-marker" role="group" aria-label="Project trust" aria-describedby={noteID}>
        <span class="badge untrusted-badge">Untrusted</span>
        <span id={noteID} class="untrusted-note">
          {withheldText(props.trust.withheld())}
        </span>
        <button type="button" class="button button-small" onClick={() => setOpen(true)}>
          Trust this project…
        </button>
      </div>
      <Show when={open()}>
        <TrustProjectDialog trust={props.trust} onClose={() => setOpen(false)} />
      </Show>
    </Show>
  )
}

/** The session header's mark of an untrusted project (the sidebar may be folded away): it opens the trust dialog. */
export function UntrustedBadge(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const noteID = createUniqueId()
  return (
    <Show when={!props.trust.trusted()}>
      <button
        type="button"
        class="badge untrusted-badge untrusted-badge-button"
        title={`${withheldText(props.trust.withheld())} Review and trust it…`}
        aria-describedby={noteID}
        onClick={() => setOpen(true)}
      >
        Untrusted project
      </button>
      <span id={noteID} class="visually-hidden">
        {withheldText(props.trust.withheld())}
      </span>
      <Show when={open()}>
        <TrustProjectDialog trust={props.trust} onClose={() => setOpen(false)} />
      </Show>
    </Show>
  )
}
