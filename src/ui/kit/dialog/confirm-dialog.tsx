import { createSignal, Show, type JSX } from 'solid-js'
import { Dialog } from './dialog'

/**
 * "Are you sure?" for destructive actions. Cancel has the initial focus, so a stray Enter never destroys anything;
 * while the action runs both buttons wait, and a failure is shown in the dialog instead of closing it.
 */
export function ConfirmDialog(props: {
  title: string
  description: JSX.Element
  confirmLabel: string
  busyLabel?: string
  onConfirm: () => Promise<unknown> | unknown
  onClose: () => void
}): JSX.Element {
  const [busy, setBusy] = createSignal(false)
  const [failure, setFailure] = createSignal<string>()
  const confirm = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await props.onConfirm()
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error))
      setBusy(false)
    }
  }
  return (
    <Dialog title={props.title} description={props.description} onClose={() => !busy() && props.onClose()}>
      <Show when={failure()}>
        <p class="dialog-failure" role="alert">
          {failure()}
        </p>
      </Show>
      <div class="dialog-actions">
        <button type="button" class="button" data-autofocus disabled={busy()} onClick={() => props.onClose()}>
          Cancel
        </button>
        <button type="button" class="button button-danger" disabled={busy()} onClick={() => void confirm()}>
          {busy() ? (props.busyLabel ?? props.confirmLabel) : props.confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
