import { Show, type JSX } from 'solid-js'
import type { Attempt } from './create-attempt'

/** A dialog's main button. Without `onClick` it submits the dialog's form. */
export interface DialogAction {
  label: string
  tone: 'primary' | 'danger'
  disabled?: boolean
  onClick?: () => void
}

/**
 * A dialog's footer: the failure of its last attempt (announced), then its buttons: any extra ones it is given, the
 * way out (Cancel, or Close where there is nothing to confirm) and the main action.
 */
export function DialogActions(props: {
  onCancel: () => void
  cancelLabel?: string
  cancelDisabled?: boolean
  /** Gives the way out the initial focus, so a stray Enter never confirms a destructive action. */
  focusCancel?: boolean
  action?: DialogAction
  failure?: string
  /** The dialog's action as it runs: the way out waits for it, and its failure is shown. */
  attempt?: Attempt
  children?: JSX.Element
}): JSX.Element {
  const failure = () => props.attempt?.failure() ?? props.failure
  return (
    <>
      <Show when={failure()}>
        <p class="dialog-failure" role="alert">
          {failure()}
        </p>
      </Show>
      <div class="dialog-actions">
        {props.children}
        <button
          type="button"
          class="button"
          data-autofocus={props.focusCancel ? '' : undefined}
          disabled={props.attempt?.busy() ?? props.cancelDisabled}
          onClick={() => props.onCancel()}
        >
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <Show when={props.action}>
          {(action) => (
            <button
              type={action().onClick ? 'button' : 'submit'}
              class={`button button-${action().tone}`}
              disabled={action().disabled}
              onClick={() => action().onClick?.()}
            >
              {action().label}
            </button>
          )}
        </Show>
      </div>
    </>
  )
}
