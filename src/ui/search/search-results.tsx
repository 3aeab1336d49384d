import { For, Match, Show, Switch, type JSX } from 'solid-js'
import type { SearchHit } from '../../core/protocol'
import { formatDateTime, formatRelativeTime, isoTime, sessionTitle } from '../kit/format/time'
import { hashForSession } from '../kit/routing/session-location'
import type { SessionSearch } from './create-session-search'
import { highlight } from './highlight'
import './search.css'

// About half a line of the sidebar before the match, so the <mark> is on the first of the two lines shown.
const SNIPPET_LEAD_CHARS = 24

/** Moves focus to the result at `index` (clamped); false when there is none. */
export function focusResult(list: HTMLElement | null | undefined, index: number | 'last'): boolean {
  const links = list ? [...list.querySelectorAll<HTMLAnchorElement>('a.search-result')] : []
  if (links.length === 0) return false
  const at = index === 'last' ? links.length - 1 : Math.max(0, Math.min(links.length - 1, index))
  links[at]!.focus()
  return true
}

/** What the sidebar shows instead of the session list while the search box holds a query. */
export function SearchResults(props: {
  id: string
  search: SessionSearch
  now: number
  currentID: string | undefined
  limit: number
  isArchived: (sessionID: string) => boolean
  onOpen: (hit: SearchHit) => void
  /** Focus goes back to the box (ArrowUp from the first result, Escape). */
  onLeave: (clear: boolean) => void
}): JSX.Element {
  let list: HTMLUListElement | undefined
  const onKeyDown = (event: KeyboardEvent) => {
    const links = [...(list?.querySelectorAll<HTMLAnchorElement>('a.search-result') ?? [])]
    const index = links.indexOf(document.activeElement as HTMLAnchorElement)
    if (index === -1) return
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusResult(list, index + 1),
      ArrowUp: () => (index === 0 ? props.onLeave(false) : focusResult(list, index - 1)),
      Home: () => focusResult(list, 0),
      End: () => focusResult(list, 'last'),
      Escape: () => props.onLeave(true),
    }
    const move = moves[event.key]
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return
    event.preventDefault()
    move()
  }
  const quoted = () => `“${props.search.searchedFor().trim()}”`
  return (
    <div class="search-panel">
      <Switch>
        <Match when={props.search.phase() === 'failed'}>
          <p class="sidebar-note problem" role="alert">
            {props.search.error()}
          </p>
        </Match>
        <Match when={props.search.phase() === 'searching' && props.search.hits().length === 0}>
          <p class="sidebar-note quiet" role="status">
            Searching…
          </p>
        </Match>
        <Match when={props.search.phase() === 'done' && props.search.hits().length === 0}>
          <p class="sidebar-note quiet" role="status">
            No matches for {quoted()} in titles or messages.
          </p>
        </Match>
        <Match when={props.search.hits().length > 0}>
          <p class="visually-hidden" role="status">
            {props.search.hits().length === 1 ? '1 match' : `${props.search.hits().length} matches`}
          </p>
        </Match>
      </Switch>
      <Show when={props.search.hits().length > 0}>
        <ul
          ref={list}
          id={props.id}
          class="search-results"
          aria-label="Search results"
          aria-busy={props.search.phase() === 'searching'}
          onKeyDown={onKeyDown}
        >
          <For each={props.search.hits()}>
            {(hit) => (
              <li>
                <SearchResult
                  hit={hit}
                  now={props.now}
                  current={props.currentID === hit.sessionID}
                  archived={props.isArchived(hit.sessionID)}
                  onOpen={() => props.onOpen(hit)}
                />
              </li>
            )}
          </For>
        </ul>
        <Show when={props.search.hits().length >= props.limit}>
          <p class="sidebar-note quiet">Showing the newest {props.limit} matches; add a word to narrow them.</p>
        </Show>
      </Show>
    </div>
  )
}

function SearchResult(props: { hit: SearchHit; now: number; current: boolean; archived: boolean; onOpen: () => void }): JSX.Element {
  const title = () => sessionTitle(props.hit.title)
  const parts = () => highlight(props.hit.snippet, props.hit.match, { lead: SNIPPET_LEAD_CHARS })
  // A default title is shown as its date, so the raw title's match positions mean nothing there.
  const titleMatch = () => props.hit.messageID === undefined && title() === props.hit.title
  return (
    <a
      class="search-result"
      classList={{ 'search-result-current': props.current }}
      href={hashForSession(props.hit.sessionID)}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        // Modified clicks keep their browser meaning (the fragment opens the same session in a new tab).
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
        event.preventDefault()
        props.onOpen()
      }}
    >
      <span class="search-result-title">
        <Show when={titleMatch()} fallback={title()}>
          <Marked {...parts()} />
        </Show>
      </span>
      <Show when={props.hit.messageID !== undefined}>
        <span class="search-result-snippet">
          <Marked {...parts()} />
        </span>
      </Show>
      <span class="search-result-meta">
        {props.hit.messageID === undefined ? 'Title' : 'Message'}
        <Show when={props.hit.time > 0}>
          {' · '}
          <time datetime={isoTime(props.hit.time)} title={formatDateTime(props.hit.time)}>
            {formatRelativeTime(props.hit.time, props.now)}
          </time>
        </Show>
        <Show when={props.archived}>
          <span class="badge">archived</span>
        </Show>
      </span>
    </a>
  )
}

function Marked(props: { before: string; match: string; after: string }): JSX.Element {
  return (
    <>
      {props.before}
      <Show when={props.match}>
        <mark>{props.match}</mark>
      </Show>
      {props.after}
    </>
  )
}
