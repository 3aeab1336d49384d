import type { JSX } from 'solid-js'
import { createAttempt } from './create-attempt'
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
  const attempt = createAttempt((error) => (error instanceof Error ? error.message : String(error)))
  const busy = attempt.busy
  return (
    <Dialog title={props.title} description={props.description} onClose={() => !busy() && props.onClose()}>
      <DialogActions
        attempt={attempt}
        focusCancel
        onCancel={() => props.onClose()}
        action={{ label: busy() ? (props.busyLabel ?? props.confirmLabel) : props.confirmLabel, tone: 'danger', disabled: busy(), onClick: () => void attempt.run(props.onConfirm) }}
      />
    </Dialog>
  )
}
