import type { JSX } from 'solid-js'
import { PlusIcon } from '../icons/icons'
import { keysFor } from '../keyboard/shortcuts'

export function EmptyState(props: { onCreate: () => void }): JSX.Element {
  return (
    <div class="empty-state">
      <h1 class="empty-state-heading">No session open</h1>
      <p class="quiet">Pick a session on the left, or start a new one.</p>
      <button
        type="button"
        class="button button-primary"
        aria-keyshortcuts={keysFor('new-session')}
        onClick={() => props.onCreate()}
      >
        <PlusIcon />
        New session
      </button>
      <p class="faint empty-state-hint">
        <kbd>Alt</kbd> + <kbd>N</kbd> new session · <kbd>?</kbd> all shortcuts
      </p>
    </div>
  )
}
