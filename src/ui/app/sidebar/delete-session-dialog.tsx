import type { JSX } from 'solid-js'
import { sessionTitle } from '../../kit/format/time'
import type { SessionInfo } from '../../../core/schema'
import { ConfirmDialog } from '../../kit/dialog/confirm-dialog'

export function DeleteSessionDialog(props: { info: SessionInfo; onConfirm: () => Promise<unknown>; onClose: () => void }): JSX.Element {
  return (
    <ConfirmDialog
      title="Delete session?"
      description={
        <>
          <p>
            “{sessionTitle(props.info.title)}” and all its messages will be deleted from this browser. Child sessions
            started from it (subagent runs) are deleted too.
          </p>
          <p>This can't be undone.</p>
        </>
      }
      confirmLabel="Delete"
      busyLabel="Deleting…"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  )
}
