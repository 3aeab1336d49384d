import { createMemo, Show, type JSX } from 'solid-js'
import type { PartOf, UserMessage } from '../../session/schema'
import { formatDateTime, isoTime } from '../format/time'
import { useSessionStore } from '../store/session-store-context'
import { PartList } from './part-list'
import { CompactionPartView } from './parts/compaction-part'

/**
 * A user turn. A compaction request is a user message too: its marker is drawn as a divider across the list, and
 * the article only appears if the message also carries something the user wrote.
 */
export function UserMessageView(props: { message: UserMessage }): JSX.Element {
  const store = useSessionStore()
  const parts = () => store.partsOf(props.message.id)
  const compaction = createMemo(() => parts().find((part): part is PartOf<'compaction'> => part.type === 'compaction'))
  const hasContent = () => parts().some((part) => part.type !== 'compaction')
  return (
    <>
      <Show when={compaction()}>{(marker) => <CompactionPartView part={marker()} />}</Show>
      <Show when={hasContent() || !compaction()}>
        <article class="message message-user" aria-label="You" data-message-id={props.message.id}>
          <header class="message-head">
            <span class="message-author">You</span>
            <time class="faint" datetime={isoTime(props.message.time.created)}>
              {formatDateTime(props.message.time.created)}
            </time>
          </header>
          <PartList parts={parts} role="user" exclude="compaction" />
        </article>
      </Show>
    </>
  )
}
