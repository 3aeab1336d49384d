import { createMemo, createSignal, For, onCleanup, onMount, Show, type JSX } from 'solid-js'
import type { ToolPart } from '../../core/schema'
import { truncateTail } from './tail'
import { describeEnd, terminalEntry } from './terminal-entry'
import { formatNumber } from '../format/number'

/** Within this distance of the end the reader is "at the bottom", and new output keeps the end in view. */
const FOLLOW_THRESHOLD_PX = 24
/** A long build log shows its tail (what a terminal shows) until asked for the rest. */
export const TERMINAL_TAIL_LINES = 400

/**
 * The session's shell, read-only: each bash call in order as `$ command`, its output as it streams, and how it
 * ended. It sticks to the end while the reader is there and holds still once they scroll up.
 */
export function TerminalPanel(props: { calls: ToolPart[] }): JSX.Element {
  const [following, setFollowing] = createSignal(true)
  let scroller!: HTMLDivElement
  const toEnd = () => {
    scroller.scrollTop = scroller.scrollHeight
  }
  onMount(() => {
    toEnd()
    // Any change to what is printed (a new call, a streamed chunk, an exit code) keeps the end in view if followed.
    const observer = new MutationObserver(() => {
      if (following()) toEnd()
    })
    observer.observe(scroller, { childList: true, subtree: true, characterData: true })
    onCleanup(() => observer.disconnect())
  })
  return (
    <section class="terminal" aria-label="Terminal">
      <div
        ref={scroller}
        class="terminal-scroller mono"
        tabindex="0"
        onScroll={() => setFollowing(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= FOLLOW_THRESHOLD_PX)}
      >
        <Show when={props.calls.length > 0} fallback={<p class="terminal-empty">No commands have run in this session yet.</p>}>
          <For each={props.calls}>{(part) => <TerminalCall part={part} />}</For>
        </Show>
      </div>
      <Show when={!following()}>
        <button
          type="button"
          class="button button-small terminal-jump"
          onClick={() => {
            setFollowing(true)
            toEnd()
          }}
        >
          Scroll to end
        </button>
      </Show>
    </section>
  )
}

function TerminalCall(props: { part: ToolPart }): JSX.Element {
  const entry = createMemo(() => terminalEntry(props.part))
  const [expanded, setExpanded] = createSignal(false)
  const tail = createMemo(() => truncateTail(entry().output, TERMINAL_TAIL_LINES))
  return (
    <div class="terminal-call" data-state={entry().state.type} data-part-id={props.part.id}>
      <div class="terminal-command">
        <span class="terminal-prompt" aria-hidden="true">
          ${' '}
        </span>
        <span>{entry().command ?? '…'}</span>
      </div>
      <Show when={tail().hidden > 0 && !expanded()}>
        <button type="button" class="button-link terminal-more" onClick={() => setExpanded(true)}>
          Show {formatNumber(tail().hidden)} earlier lines
        </button>
      </Show>
      <Show when={entry().output}>
        <pre class="terminal-output">{expanded() ? entry().output : tail().text}</pre>
      </Show>
      <p class="terminal-end">{describeEnd(entry().state)}</p>
    </div>
  )
}
