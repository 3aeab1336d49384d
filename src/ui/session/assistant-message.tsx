import { Show, type JSX } from 'solid-js'
import type { AssistantMessage, Message, MessageError } from '../../core/schema'
import { useSessionStore } from '../store/session-store-context'
import { AssistantFooter } from './assistant-footer'
import { MessageErrorView } from './message-error-view'
import { PartList } from './part-list'

/**
 * One assistant message (one model step). Steps answering the same prompt read as one reply: only the first shows
 * the "Assistant" heading. A compaction summary is labelled as such, under its divider.
 */
export function AssistantMessageView(props: { message: AssistantMessage; previous: Message | undefined; before?: string | undefined }): JSX.Element {
  const store = useSessionStore()
  const parts = () => store.partsOf(props.message.id)
  const summary = () => props.message.summary === true
  const continued = () => {
    const previous = props.previous
    return previous?.role === 'assistant' && previous.parentID === props.message.parentID && !previous.summary && !summary()
  }
  return (
    // A summary is a region of its own ("Summary"), not one of the assistant's replies.
    <article
      class="message message-assistant"
      classList={{ 'message-summary': summary(), 'message-continued': continued() }}
      role={summary() ? 'region' : undefined}
      aria-label={summary() ? 'Summary' : `Assistant (${props.message.modelID})`}
      data-message-id={props.message.id}
    >
      <Show when={!continued()}>
        <header class="message-head">
          <span class="message-author">{summary() ? 'Summary' : 'Assistant'}</span>
          <span class="faint">{props.message.agent}</span>
          <Show when={summary()}>
            <SummaryUse markerID={props.message.parentID} />
          </Show>
        </header>
      </Show>
      <PartList parts={parts} role="assistant" before={props.before} />
      <Show when={props.message.error}>
        {(error) => (
          <Show when={error().name !== 'MessageAbortedError'} fallback={<StoppedMarker message={abortText(error())} />}>
            <MessageErrorView error={error()} />
          </Show>
        )}
      </Show>
      <AssistantFooter message={props.message} />
    </article>
  )
}

/** Whether the model reads this summary in place of the turns above it (not once the compaction is undone). */
function SummaryUse(props: { markerID: string }): JSX.Element {
  const store = useSessionStore()
  const undone = () => store.partsOf(props.markerID).some((part) => part.type === 'compaction' && part.undone !== undefined)
  return (
    <span class="faint summary-use">
      {undone() ? 'not used: the compaction was undone' : 'the model reads this instead of the turns above'}
    </span>
  )
}

/** The abort's own words, unless they only repeat "stopped" (a tab that died says so; the Stop button does not). */
function abortText(error: MessageError): string | undefined {
  const message = error.name === 'MessageAbortedError' ? error.data.message.trim() : ''
  return message && !/^stopped\b/i.test(message) && !/cancell?ed/i.test(message) ? message : undefined
}

/** A stop the user asked for is not an error: a quiet marker where the reply ends. */
function StoppedMarker(props: { message: string | undefined }): JSX.Element {
  return (
    <p class="message-stopped">
      <span class="message-stopped-label">Stopped</span>
      <Show when={props.message}>
        <span aria-hidden="true"> · </span>
        <span>{props.message}</span>
      </Show>
    </p>
  )
}
