import { createResource, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js'
import { sessionTitle } from '../kit/format/time'
import { log } from '../../core/log'
import type { SessionInfo } from '../../core/schema'
import type { ForkFamily } from '../../core/protocol'
import { hashForSession } from '../kit/routing/session-location'
import './history.css'

/** A plain click opens in place (switching project when needed); modified clicks keep their browser meaning. */
function follow(event: MouseEvent, open: () => void): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  open()
}

/**
 * What the forks list shows of the sessions the UI knows: the forks of `sessionID` with their titles. A session made
 * by a branch (here or in another tab) arrives as an event, so a change here means the list should be read again.
 */
export function forkRevision(sessions: Readonly<Record<string, SessionInfo>>, sessionID: string): string {
  const keys: string[] = []
  for (const info of Object.values(sessions)) if (info.fork?.sessionID === sessionID) keys.push(`${info.id} ${info.title}`)
  return keys.sort().join('\n')
}

/** Where this session was branched from, and the sessions branched from it, as links to move between them. */
export function ForkLinks(props: {
  info: SessionInfo
  /** The session's branch family; a failure leaves just what the session row itself says. */
  load: () => Promise<ForkFamily>
  /** Changes when a session branched from this one appears, is renamed or goes (in this tab or another): read again. */
  revision?: () => string
  known: (sessionID: string) => SessionInfo | undefined
  onOpen: (session: SessionInfo) => void
}): JSX.Element {
  const [family] = createResource(
    // An object, so every new revision (the empty one too) is a fetch.
    () => ({ revision: props.revision?.() ?? '' }),
    (): Promise<ForkFamily> =>
      props.load().catch((error: unknown) => {
        log.warn('tabcode: could not read the session forks', error)
        return { forks: [] }
      }),
  )
  const [open, setOpen] = createSignal(false)
  const listID = createUniqueId()
  let toggle: HTMLButtonElement | undefined
  const origin = () => family()?.origin ?? (props.info.fork ? props.known(props.info.fork.sessionID) : undefined)
  const forks = () => family()?.forks ?? []
  return (
    <span class="fork-links">
      <Show when={origin()}>
        {(session) => (
          <a class="fork-origin" href={hashForSession(session().id)} onClick={(event) => follow(event, () => props.onOpen(session()))}>
            Forked from {sessionTitle(session().title)}
          </a>
        )}
      </Show>
      <Show when={forks().length > 0}>
        <span
          class="fork-list-root"
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || !open()) return
            event.preventDefault()
            event.stopPropagation()
            setOpen(false)
            toggle?.focus()
          }}
        >
          <button
            ref={toggle}
            type="button"
            class="button button-small button-quiet"
            aria-expanded={open()}
            aria-controls={listID}
            onClick={() => setOpen(!open())}
          >
            Forks ({forks().length})
          </button>
          <Show when={open()}>
            <ul id={listID} class="fork-list" aria-label="Forks">
              <For each={forks()}>
                {(fork) => (
                  <li>
                    <a href={hashForSession(fork.id)} onClick={(event) => follow(event, () => props.onOpen(fork))}>
                      {sessionTitle(fork.title)}
                    </a>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </span>
      </Show>
    </span>
  )
}
