import { For, type JSX } from 'solid-js'
import type { Toasts } from './create-toasts'
import './banner.css'

/** The toasts, in one corner above the prompt: each a status line with its own Dismiss. */
export function ToastList(props: { toasts: Toasts }): JSX.Element {
  return (
    <div class="toasts" aria-label="Notifications">
      <For each={props.toasts.list()}>
        {(toast) => (
          <div
            class="toast"
            role="status"
            onPointerEnter={() => props.toasts.hold(toast.id, true)}
            onPointerLeave={() => props.toasts.hold(toast.id, false)}
            onFocusIn={() => props.toasts.hold(toast.id, true)}
            onFocusOut={() => props.toasts.hold(toast.id, false)}
          >
            <span class="toast-message">{toast.text}</span>
            <button type="button" class="button button-small button-quiet" onClick={() => props.toasts.dismiss(toast.id)}>
              Dismiss
            </button>
          </div>
        )}
      </For>
    </div>
  )
}
