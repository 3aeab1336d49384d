import { createSignal, type JSX } from 'solid-js'
import { Dialog } from './dialog'
import { DialogActions } from './dialog-actions'

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
      <DialogActions
        failure={failure()}
        focusCancel
        cancelDisabled={busy()}
        onCancel={() => props.onClose()}
        action={{
          label: busy() ? (props.busyLabel ?? props.confirmLabel) : props.confirmLabel,
          tone: 'danger',
          disabled: busy(),
          onClick: () => void confirm(),
        }}
      />
    </Dialog>
  )
}
