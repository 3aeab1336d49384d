import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type JSX } from 'solid-js'
import type { ToolPart } from '../../core/schema'
import { CloseIcon } from '../kit/icons/icons'
import { nextTabIndex } from './tab-keys'
import { ShellTerminal } from './terminal/shell-terminal'
import type { TerminalApi } from './terminal/shell-session'
import { truncateTail } from './tail'
import { describeEnd, terminalEntry } from './terminal-entry'
import { formatNumber } from '../kit/format/number'

/** Within this distance of the end the reader is "at the bottom", and new output keeps the end in view. */
const FOLLOW_THRESHOLD_PX = 24
/** A long build log shows its tail (what a terminal shows) until asked for the rest. */
export const TERMINAL_TAIL_LINES = 400

export interface TerminalPanelProps {
  calls: ToolPart[]
  /** Where the user's own terminals run; without it only the agent's log shows. */
  shell?: { api: TerminalApi; projectID: string } | undefined
}

interface UserTerminal {
  key: number
  name: string
}

/**
 * The Terminal tab: the agent's commands as a read-only log (the first tab, "Agent"), and the user's own
 * terminals beside it, each a tab with a name and a close button (Delete on the tab closes it too). A terminal
 * stays mounted while another tab shows, so it keeps its screen, its running command and its history.
 */
export function TerminalPanel(props: TerminalPanelProps): JSX.Element {
  const [terminals, setTerminals] = createSignal<UserTerminal[]>([])
  const [selected, setSelected] = createSignal<number>(0)
  let opened = 0
  const tabs = new Map<number, HTMLButtonElement>()
  const strip = () => [{ key: 0, name: 'Agent' }, ...terminals()]
  const select = (key: number, focus: boolean) => {
    setSelected(key)
    if (focus) tabs.get(key)?.focus()
  }
  const open = () => {
    const key = ++opened
    setTerminals((current) => [...current, { key, name: `Terminal ${key}` }])
    setSelected(key)
  }
  const close = (key: number) => {
    const list = strip()
    const index = list.findIndex((entry) => entry.key === key)
    setTerminals((current) => current.filter((entry) => entry.key !== key))
    tabs.delete(key)
    // Focus goes to a neighbour, so a keyboard user is never left on nothing.
    if (selected() === key || document.activeElement === document.body) select(list[index - 1]?.key ?? 0, true)
  }
  // A terminal runs in its project's workspace: opening another project closes them (unmounting ends their shells).
  createEffect(
    on(
      () => props.shell?.projectID,
      () => {
        setTerminals([])
        setSelected(0)
      },
      { defer: true },
    ),
  )
  const tabID = (key: number) => `terminal-tab-${key}`
  const panelID = (key: number) => `terminal-panel-${key}`

  return (
    <section class="terminal-panel" aria-label="Terminal">
      <div class="terminal-strip">
        <div class="terminal-tabs" role="tablist" aria-label="Terminals">
          <For each={strip()}>
            {(entry, index) => (
              <span class="terminal-tab" role="presentation" data-selected={selected() === entry.key}>
                <button
                  ref={(element) => tabs.set(entry.key, element)}
                  type="button"
                  role="tab"
                  id={tabID(entry.key)}
                  class="terminal-tab-name"
                  aria-selected={selected() === entry.key}
                  aria-controls={panelID(entry.key)}
                  tabindex={selected() === entry.key ? 0 : -1}
                  onClick={() => select(entry.key, false)}
                  onKeyDown={(event) => {
                    if (event.altKey || event.ctrlKey || event.metaKey) return
                    if (event.key === 'Delete' && entry.key !== 0) {
                      event.preventDefault()
                      return close(entry.key)
                    }
                    const next = nextTabIndex(event.key, index(), strip().length)
                    if (next === undefined) return
                    event.preventDefault()
                    select(strip()[next]!.key, true)
                  }}
                >
                  {entry.name}
                </button>
                <Show when={entry.key !== 0}>
                  <button
                    type="button"
                    class="icon-button terminal-tab-close"
                    aria-label={`Close ${entry.name}`}
                    title={`Close ${entry.name}`}
                    onClick={() => close(entry.key)}
                  >
                    <CloseIcon />
                  </button>
                </Show>
              </span>
            )}
          </For>
        </div>
        <Show when={props.shell}>
          <button type="button" class="button button-small terminal-new" onClick={open}>
            New terminal
          </button>
        </Show>
      </div>
      <div id={panelID(0)} class="terminal-pane" role="tabpanel" aria-labelledby={tabID(0)} hidden={selected() !== 0}>
        <AgentLog calls={props.calls} />
      </div>
      <Show when={props.shell}>
        {(shell) => (
          <For each={terminals()}>
            {(entry) => (
              <div id={panelID(entry.key)} class="terminal-pane" role="tabpanel" aria-labelledby={tabID(entry.key)} hidden={selected() !== entry.key}>
                <ShellTerminal api={shell().api} projectID={shell().projectID} name={entry.name} onLeave={() => select(entry.key, true)} />
              </div>
            )}
          </For>
        )}
      </Show>
    </section>
  )
}

/**
 * The agent's shell, read-only: each bash call in order as `$ command`, its output as it streams, and how it
 * ended. It sticks to the end while the reader is there and holds still once they scroll up.
 */
function AgentLog(props: { calls: ToolPart[] }): JSX.Element {
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
    <div class="terminal-log">
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
    </div>
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
