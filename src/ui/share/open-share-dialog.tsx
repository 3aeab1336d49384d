import { createSignal, type JSX } from 'solid-js'
import { Dialog } from '../kit/dialog/dialog'
import { DialogActions } from '../kit/dialog/dialog-actions'
import { TextField } from '../kit/form/field'

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
        <TextField label="Passphrase" type="password" autocomplete="off" data-autofocus="" value={passphrase()} onValue={setPassphrase} />
        <DialogActions
          failure={props.failure}
          cancelDisabled={props.busy}
          onCancel={() => props.onCancel()}
          action={{ label: props.busy ? 'Opening…' : 'Open', tone: 'primary', disabled: props.busy || !passphrase() }}
        />
      </form>
    </Dialog>
  )
}
