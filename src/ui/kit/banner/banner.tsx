import { Show, type JSX } from 'solid-js'
import './banner.css'

/**
 * A one-line notice across the top of the app with at most one action. `role="status"` by default: these are
 * news (an update, another tab), not errors that interrupt.
 */
export function Banner(props: {
  message: string
  actionLabel?: string
  onAction?: () => void
  onDismiss?: () => void
  dismissLabel?: string
  tone?: 'info' | 'warning' | 'danger'
  role?: 'status' | 'alert'
  children?: JSX.Element
}): JSX.Element {
  return (
    <div class="banner" data-tone={props.tone ?? 'info'} role={props.role ?? 'status'}>
      <span class="banner-message">{props.message}</span>
      {props.children}
      <Show when={props.actionLabel && props.onAction}>
        <button type="button" class="button button-small" onClick={() => props.onAction?.()}>
          {props.actionLabel}
        </button>
      </Show>
      <Show when={props.onDismiss}>
        <button type="button" class="button button-small button-quiet" onClick={() => props.onDismiss?.()}>
          {props.dismissLabel ?? 'Dismiss'}
        </button>
      </Show>
    </div>
  )
}
