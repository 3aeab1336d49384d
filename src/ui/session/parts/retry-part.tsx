import { Show, type JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'

export function RetryPartView(props: { part: PartOf<'retry'> }): JSX.Element {
  return (
    <p class="part part-retry">
      Retry attempt {props.part.attempt}: {props.part.error.data.message}
      <Show when={props.part.error.data.statusCode}>
        {(status) => <span class="faint"> (HTTP {status()})</span>}
      </Show>
    </p>
  )
}
