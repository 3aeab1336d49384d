import { createSignal, createUniqueId, Show, type JSX } from 'solid-js'
import { Dialog } from '../kit/dialog/dialog'

/**
 * Asks for the passphrase of an encrypted share link. The link stays in the fragment until it opens, so a wrong
 * passphrase only asks again (with the reason) and Cancel leaves nothing behind.
 */
export function OpenShareDialog(props: {
  failure?: string | undefined
  busy: boolean
  onSubmit: (passphrase: string) => void
  onCancel: () => void
}): JSX.Element {
  const fieldID = createUniqueId()
  const [passphrase, setPassphrase] = createSignal('')
  return (
    <Dialog
      title="Open shared session"
      description={<p>This link is protected by a passphrase. Enter the one you were given with it.</p>}
      onClose={() => !props.busy && props.onCancel()}
    >
      <form
        class="share-open-form"
        onSubmit={(event) => {
          event.preventDefault()
          if (passphrase() && !props.busy) props.onSubmit(passphrase())
        }}
      >
        <div class="field">
          <label class="field-label" for={fieldID}>
            Passphrase
          </label>
          <input
            id={fieldID}
            class="text-input"
            type="password"
            autocomplete="off"
            data-autofocus
            value={passphrase()}
            onInput={(event) => setPassphrase(event.currentTarget.value)}
          />
        </div>
        <Show when={props.failure}>
          <p class="dialog-failure" role="alert">
            {props.failure}
          </p>
        </Show>
        <div class="dialog-actions">
          <button type="button" class="button" disabled={props.busy} onClick={() => props.onCancel()}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={props.busy || !passphrase()}>
            {props.busy ? 'Opening…' : 'Open'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
