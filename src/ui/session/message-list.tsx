import { createEffect, createMemo, For, onCleanup, Show, type JSX } from 'solid-js'
import { visibleMessages } from '../history/revert-cut'
import { markMessage } from '../search/mark-message'
import { useSessionStore } from '../store/session-store-context'
import { createKeyedList } from './create-keyed-list'
import { createVirtualList, type VirtualList } from './create-virtual-list'
import { MessageView } from './message-view'

/**
 * The conversation, virtualised: at most MAX_MOUNTED_ROWS messages are in the DOM however long the session is. It
 * follows the end while the reader is there, holds still once they scroll up, and loads older pages at the top.
 */
export function MessageList(props: { controls?: (list: Pick<VirtualList, 'scrollToBottom'>) => void }): JSX.Element {
  const store = useSessionStore()
  const current = store.current
  // The revert point as a value: the session row changes with every step's usage, the cut only with a revert.
  const cut = createMemo(
    () => {
      const revert = current.info()?.revert
      return revert ? { messageID: revert.messageID, partID: revert.partID } : undefined
    },
    undefined,
    { equals: (a, b) => a?.messageID === b?.messageID && a?.partID === b?.partID },
  )
  // A reverted session hides its messages from the revert point on (they are removed at the next prompt).
  const shown = createMemo(() => visibleMessages(current.messages(), cut()))
  const keyed = createKeyedList(shown)
  let scroller: HTMLDivElement | undefined
  let log: HTMLDivElement | undefined
  const loadOlder = () => {
    if (current.hasOlder() && !current.loading()) void current.loadOlder()
  }
  const virtual = createVirtualList({ ids: keyed.ids, scroller: () => scroller, list: () => log, onReachTop: loadOlder })
  props.controls?.(virtual)
  // A search hit further back than the first page: the store loads pages until it is there; then its rows are
  // mounted around it, and it is scrolled to and marked once rendered. A message a revert hides is loaded but not
  // shown: the request ends there.
  let stopReveal: (() => void) | undefined
  createEffect(() => {
    const messageID = current.revealing()
    if (messageID === undefined) return
    if (keyed.get(messageID) !== undefined) {
      virtual.reveal(messageID)
      stopReveal?.()
      stopReveal = markMessage(messageID)
    }
    current.revealed()
  })
  onCleanup(() => stopReveal?.())
  // Each row needs its predecessor (consecutive steps of one reply share a heading).
  const previousOf = (messageID: string) => {
    const previous = keyed.previousID(messageID)
    return previous ? keyed.get(previous) : undefined
  }
  const empty = () => keyed.ids().length === 0
  return (
    <div class="message-scroller-frame">
      <div class="message-scroller" ref={scroller} tabindex="0">
        <div class="message-column">
          <Show when={current.hasOlder()}>
            <button type="button" class="button button-small button-quiet load-older" disabled={current.loading()} onClick={loadOlder}>
              {current.loading() ? 'Loading…' : 'Load older messages'}
            </button>
          </Show>
          <Show when={current.error()}>
            <p class="problem list-note" role="alert">
              {current.error()}
            </p>
          </Show>
          {/* Rows mounted by scrolling are not news: the log only announces while it follows the end. */}
          <div
            ref={log}
            class="message-log"
            role="log"
            aria-label="Messages"
            aria-relevant="additions"
            aria-live={virtual.following() ? 'polite' : 'off'}
            style={{ 'padding-top': `${virtual.padding().top}px`, 'padding-bottom': `${virtual.padding().bottom}px` }}
          >
            <For each={virtual.visible()}>
              {(messageID) => (
                <div class="message-row" ref={(element) => virtual.observe(element, messageID)} data-message-row={messageID}>
                  <Show when={keyed.get(messageID)}>
                    {(message) => (
                      <MessageView
                        message={message()}
                        previous={previousOf(messageID)}
                        before={cut()?.messageID === messageID ? cut()?.partID : undefined}
                      />
                    )}
                  </Show>
                </div>
              )}
            </For>
          </div>
          <Show when={empty() && !current.error()}>
            <p class="list-note quiet">{current.loading() ? 'Loading messages…' : 'No messages yet.'}</p>
          </Show>
        </div>
      </div>
      {/*
        The pill's strip is always there, under the log rather than over it: were it to appear only with the pill, the
        view would shrink as the reader leaves the end, moving what they read and any row a search hit scrolled to.
      */}
      <div class="jump-latest-strip">
        <Show when={!virtual.following() && !empty()}>
          <button type="button" class="button button-small" onClick={() => virtual.scrollToBottom()}>
            Jump to latest
          </button>
        </Show>
      </div>
    </div>
  )
}
