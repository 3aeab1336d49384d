import { For, type JSX } from 'solid-js'
import type { Toasts } from './create-toasts'
import './banner.css'

/**
 * The toasts, in one corner above the prompt, each with its own Dismiss. The list itself is the live region (always
 * in the page, so a screen reader hears each toast as it is added), not each toast.
 */
export function ToastList(props: { toasts: Toasts }): JSX.Element {
  return (
    <div class="toasts" role="status">
      <For each={props.toasts.list()}>
        {(toast) => (
          <div
            class="toast"
            onPointerEnter={() => props.toasts.hold(toast.id, true)}
            onPointerLeave={() => props.toasts.hold(toast.id, false)}
            onFocusIn={() => props.toasts.hold(toast.id, true)}
            onFocusOut={() => props.toasts.hold(toast.id, false)}
          >
            <span class="toast-message">{toast.text}</span>
            <button
              type="button"
              class="button button-small button-quiet"
              aria-label={`Dismiss “${toast.text}”`}
              onClick={() => props.toasts.dismiss(toast.id)}
            >
              Dismiss
            </button>
          </div>
        )}
      </For>
    </div>
  )
}
