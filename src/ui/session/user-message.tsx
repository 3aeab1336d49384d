import { createMemo, Show, type JSX } from 'solid-js'
import type { PartOf, UserMessage } from '../../core/schema'
import { formatDateTime, isoTime } from '../kit/format/time'
import { useHistoryActions } from '../history/history-context'
import { MessageActions } from '../history/message-actions'
import { MessageEditor } from '../history/message-editor'
import { isCompactionContinue, promptText } from '../history/prompt-text'
import { useSessionStore } from '../store/session-store-context'
import { PartList } from './part-list'
import { CompactionPartView } from './parts/compaction-part'

/**
 * A user turn. A compaction request is a user message too: its marker is drawn as a divider across the list, and
 * the article only appears if the message also carries something the user wrote. The message tabcode sends on its
 * own after an automatic compaction is one small line.
 */
export function UserMessageView(props: { message: UserMessage; before?: string | undefined }): JSX.Element {
  const store = useSessionStore()
  const history = useHistoryActions()
  const parts = () => store.partsOf(props.message.id)
  const compaction = createMemo(() => parts().find((part): part is PartOf<'compaction'> => part.type === 'compaction'))
  const content = createMemo(() => parts().filter((part) => part.type !== 'compaction'))
  const continuation = () => content().length > 0 && content().every(isCompactionContinue)
  return (
    <>
      <Show when={compaction()}>
        {(marker) => (
          <CompactionPartView part={marker()} busy={history.busy()} onUndo={() => history.undoCompaction(props.message.id)} />
        )}
      </Show>
      <Show when={continuation()}>
        <div class="compaction-continue" data-message-id={props.message.id}>
          <span title={content().map((part) => (part.type === 'text' ? part.text : '')).join('\n')}>Continued after compaction</span>
          <MessageActions message={props.message} />
        </div>
      </Show>
      <Show when={(content().length > 0 || !compaction()) && !continuation()}>
        <article class="message message-user" aria-label="You" data-message-id={props.message.id}>
          <header class="message-head">
            <span class="message-author">You</span>
            <time class="faint" datetime={isoTime(props.message.time.created)}>
              {formatDateTime(props.message.time.created)}
            </time>
            <MessageActions message={props.message} />
          </header>
          <Show
            when={history.editing() === props.message.id}
            fallback={<PartList parts={parts} role="user" exclude="compaction" before={props.before} />}
          >
            <MessageEditor message={props.message} text={promptText(parts())} />
          </Show>
        </article>
      </Show>
    </>
  )
}
