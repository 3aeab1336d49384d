import { createMemo, For, Show, type JSX } from 'solid-js'
import { useSessionStore } from '../store/session-store-context'
import { createKeyedList } from './create-keyed-list'
import { createStickToBottom } from './create-stick-to-bottom'
import { MessageView } from './message-view'

/** The conversation: newest page first loaded, older pages on request, the reader's place kept either way. */
export function MessageList(): JSX.Element {
  const store = useSessionStore()
  const current = store.current
  const keyed = createKeyedList(current.messages)
  let scroller!: HTMLDivElement
  let content!: HTMLDivElement
  const scrolling = createStickToBottom({ scroller: () => scroller, content: () => content })
  // Each row needs its predecessor (consecutive steps of one reply share a heading); one pass per list change.
  const previousIDs = createMemo(() => {
    const ids = keyed.ids()
    const map = new Map<string, string>()
    for (let index = 1; index < ids.length; index++) map.set(ids[index]!, ids[index - 1]!)
    return map
  })
  const previousOf = (messageID: string) => {
    const previous = previousIDs().get(messageID)
    return previous ? keyed.get(previous) : undefined
  }
  const empty = () => keyed.ids().length === 0
  return (
    <div class="message-scroller" ref={scroller}>
      <div class="message-column" ref={content}>
        <Show when={current.hasOlder()}>
          <button
            type="button"
            class="button button-small button-quiet load-older"
            disabled={current.loading()}
            onClick={() => void scrolling.keepPosition(() => current.loadOlder())}
          >
            {current.loading() ? 'Loading…' : 'Load older messages'}
          </button>
        </Show>
        <Show when={current.error()}>
          <p class="problem list-note" role="alert">
            {current.error()}
          </p>
        </Show>
        <div class="message-log" role="log" aria-label="Messages" aria-relevant="additions">
          <For each={keyed.ids()}>
            {(messageID) => (
              <Show when={keyed.get(messageID)}>
                {(message) => <MessageView message={message()} previous={previousOf(messageID)} />}
              </Show>
            )}
          </For>
        </div>
        <Show when={empty() && !current.error()}>
          <p class="list-note quiet">{current.loading() ? 'Loading messages…' : 'No messages yet.'}</p>
        </Show>
      </div>
    </div>
  )
}
