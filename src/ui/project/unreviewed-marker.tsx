import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import type { ProjectTrustStore } from './create-project-trust'
import { TrustProjectDialog } from './trust-project-dialog'
import { unreviewedText } from './trust-text'
import './trust.css'

/**
 * In a trusted project, where the "Untrusted" marker would be: allow rules written into its files since the user
 * last saw them (by the agent's tools, or outside tabcode) wait for review, and the way to review them.
 */
export function UnreviewedMarker(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const noteID = createUniqueId()
  return (
    <>
      <Show when={props.trust.unreviewed().length > 0}>
        <div class="untrusted-marker" role="group" aria-label="Project trust" aria-describedby={noteID}>
          <span class="badge untrusted-badge">Rules to review</span>
          <span id={noteID} class="untrusted-note">
            {unreviewedText(props.trust.unreviewed().length)}
          </span>
          <button type="button" class="button button-small" onClick={() => setOpen(true)}>
            Review…
          </button>
        </div>
      </Show>
      <Show when={open()}>
        <TrustProjectDialog trust={props.trust} review onClose={() => setOpen(false)} />
      </Show>
    </>
  )
}

/** The session header's mark of rules waiting for review (the sidebar may be folded away): it opens the review. */
export function UnreviewedBadge(props: { trust: ProjectTrustStore }): JSX.Element {
  const [open, setOpen] = createSignal(false)
  const noteID = createUniqueId()
  return (
    <>
      <Show when={props.trust.unreviewed().length > 0}>
        <button
          type="button"
          class="badge untrusted-badge untrusted-badge-button"
          title={`${unreviewedText(props.trust.unreviewed().length)} Review them…`}
          aria-describedby={noteID}
          onClick={() => setOpen(true)}
        >
          Rules to review
        </button>
        <span id={noteID} class="visually-hidden">
          {unreviewedText(props.trust.unreviewed().length)}
        </span>
      </Show>
      <Show when={open()}>
        <TrustProjectDialog trust={props.trust} review onClose={() => setOpen(false)} />
      </Show>
    </>
  )
}
