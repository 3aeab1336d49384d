import { createMemo, Show, type JSX } from 'solid-js'
import type { MessageError } from '../../core/schema'
import { describeMessageError } from './message-error'

/** A stored error is history, not news: a plain labelled group, not an alert that would be announced on open. */
export function MessageErrorView(props: { error: MessageError }): JSX.Element {
  const text = createMemo(() => describeMessageError(props.error))
  return (
    <div class="message-error" role="group" aria-label="Error">
      <p class="message-error-line">
        <strong class="message-error-title">{text().title}</strong>
        <span>{text().message}</span>
      </p>
      <ErrorDetails detail={text().detail} />
    </div>
  )
}

/** The raw response behind an error, folded away: useful to report, noise to read. */
export function ErrorDetails(props: { detail: string | undefined }): JSX.Element {
  return (
    <Show when={props.detail}>
      <details class="message-error-detail">
        <summary>Details</summary>
        <pre>{props.detail}</pre>
      </details>
    </Show>
  )
}
