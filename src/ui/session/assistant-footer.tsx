import { Show, type JSX } from 'solid-js'
import type { AssistantMessage } from '../../core/schema'
import { formatDuration } from '../kit/format/time'
import { ContinueAction, MessageActions } from '../history/message-actions'
import { UsageLine } from './usage-line'

/**
 * Why a reply stopped, when a reader needs to know: a normal end or a step that called tools says nothing (the
 * reply and its cards show it), an error shows as the error.
 */
export function finishText(finish: string | undefined): string | undefined {
  switch (finish) {
    case 'length':
      return 'cut off at the output limit'
    case 'content-filter':
      return "stopped by the provider's content filter"
    default:
      return undefined
  }
}

/** Model, usage and outcome of one assistant message, in one quiet line, and its actions. */
export function AssistantFooter(props: { message: AssistantMessage }): JSX.Element {
  const duration = () =>
    props.message.time.completed !== undefined ? props.message.time.completed - props.message.time.created : undefined
  const inProgress = () => props.message.time.completed === undefined && !props.message.error
  return (
    <footer class="message-footer">
      <span class="mono" title={`${props.message.providerID}/${props.message.modelID}`}>
        {props.message.modelID}
      </span>
      <span aria-hidden="true"> · </span>
      <UsageLine tokens={props.message.tokens} cost={props.message.cost} />
      <Show when={finishText(props.message.finish)}>
        {(text) => (
          <>
            <span aria-hidden="true"> · </span>
            <span class="message-finish">{text()}</span>
          </>
        )}
      </Show>
      <Show when={duration() !== undefined}>
        <span aria-hidden="true"> · </span>
        <span>{formatDuration(duration()!)}</span>
      </Show>
      <Show when={inProgress()}>
        <span aria-hidden="true"> · </span>
        <span>in progress</span>
      </Show>
      <ContinueAction message={props.message} />
      <MessageActions message={props.message} />
    </footer>
  )
}
