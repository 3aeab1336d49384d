import { Show, type JSX } from 'solid-js'
import type { AssistantMessage } from '../../core/schema'
import { formatDuration } from '../format/time'
import { ContinueAction, MessageActions } from '../history/message-actions'
import { UsageLine } from './usage-line'

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
      <Show when={props.message.finish}>
        <span aria-hidden="true"> · </span>
        <span>finish: {props.message.finish}</span>
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
