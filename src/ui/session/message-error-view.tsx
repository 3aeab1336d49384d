import { createMemo, Show, type JSX } from 'solid-js'
import type { MessageError } from '../../session/schema'
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
      <Show when={text().detail}>
        <details class="message-error-detail">
          <summary>Details</summary>
          <pre>{text().detail}</pre>
        </details>
      </Show>
    </div>
  )
}
