import { Show, type JSX } from 'solid-js'
import type { AssistantMessage, Message } from '../../session/schema'
import { useSessionStore } from '../store/session-store-context'
import { AssistantFooter } from './assistant-footer'
import { MessageErrorView } from './message-error-view'
import { PartList } from './part-list'

/**
 * One assistant message (one model step). Steps answering the same prompt read as one reply: only the first shows
 * the "Assistant" heading. A compaction summary is labelled as such, under its divider.
 */
export function AssistantMessageView(props: { message: AssistantMessage; previous: Message | undefined }): JSX.Element {
  const store = useSessionStore()
  const parts = () => store.partsOf(props.message.id)
  const summary = () => props.message.summary === true
  const continued = () => {
    const previous = props.previous
    return previous?.role === 'assistant' && previous.parentID === props.message.parentID && !previous.summary && !summary()
  }
  return (
    <article
      class="message message-assistant"
      classList={{ 'message-summary': summary(), 'message-continued': continued() }}
      aria-label={`${summary() ? 'Summary' : 'Assistant'} (${props.message.modelID})`}
      data-message-id={props.message.id}
    >
      <Show when={!continued()}>
        <header class="message-head">
          <span class="message-author">{summary() ? 'Summary' : 'Assistant'}</span>
          <span class="faint">{props.message.agent}</span>
        </header>
      </Show>
      <PartList parts={parts} role="assistant" />
      <Show when={props.message.error}>{(error) => <MessageErrorView error={error()} />}</Show>
      <AssistantFooter message={props.message} />
    </article>
  )
}
