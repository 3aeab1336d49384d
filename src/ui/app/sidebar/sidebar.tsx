import { ThemeButton } from '../../kit/theme/theme-button'
import { createEffect, createMemo, createSignal, createUniqueId, For, onMount, Show, type JSX } from 'solid-js'
import type { SessionInfo } from '../../../core/schema'
import { ChartIcon, CloseIcon, KeyboardIcon, PlusIcon, SettingsIcon } from '../../kit/icons/icons'
import { keysFor } from '../../kit/keyboard/shortcuts'
import { createSessionSearch, SEARCH_LIMIT } from '../../search/create-session-search'
import { SearchBox } from '../../search/search-box'
import { focusResult, SearchResults } from '../../search/search-results'
import { createStorageStatus, type StorageStatus } from '../../storage/create-storage-status'
import { StorageSummary } from '../../storage/storage-summary'
import { useSessionStore } from '../../store/session-store-context'
import { createNow } from './create-now'
import { DeleteSessionDialog } from './delete-session-dialog'
import { SessionItem } from './session-item'
import './sidebar.css'

const RELATIVE_TIME_REFRESH_MS = 30_000

export function Sidebar(props: {
  id: string
  onOpen: (sessionID: string) => void
  onCreate: () => void
  onHide: () => void
  onShowShortcuts: () => void
  onShowSettings: () => void
  /** Opens the usage view (tokens and cost over time). */
  onShowUsage?: () => void
  /** Shown above the sessions (the project picker). */
  header?: JSX.Element
  /** App-wide state shown in the foot, above its buttons (the sync indicator). */
  status?: JSX.Element
  /** Shared with another view of the storage status (Settings); the sidebar makes its own otherwise. */
  storage?: StorageStatus
}): JSX.Element {
  const store = useSessionStore()
  const list = store.list
  const now = createNow(RELATIVE_TIME_REFRESH_MS)
  const search = createSessionSearch({ search: (input) => store.api.searchSessions(input) })
  const resultsID = `search-results-${createUniqueId()}`
  const storage = props.storage ?? createStorageStatus()
  let searchBox!: HTMLInputElement
  const [renaming, setRenaming] = createSignal<string>()
  const [deleting, setDeleting] = createSignal<SessionInfo>()
  // Keyed by id, so a row survives updates to its session (focus and hover stay put while other tabs write).
  const ids = createMemo(() => list.items().map((info) => info.id))
  let newSessionButton!: HTMLButtonElement
  let element!: HTMLDivElement

  const focusRow = (sessionID: string | undefined) =>
    requestAnimationFrame(() => {
      const link = sessionID
        ? element.querySelector<HTMLElement>(`[data-session-id="${sessionID}"] .session-link`)
        : undefined
      ;(link ?? newSessionButton).focus()
    })

  const remove = async (info: SessionInfo) => {
    // Focus moves to the row that takes its place (or the one above, at the end), never to the page body.
    const index = ids().indexOf(info.id)
    const rest = ids().filter((id) => id !== info.id)
    const neighbour = index === -1 ? undefined : rest[Math.min(index, rest.length - 1)]
    await store.remove(info.id)
    setDeleting(undefined)
    focusRow(neighbour)
  }

  const emptyText = () => (list.showArchived() ? 'No sessions yet.' : 'No sessions yet. Start one with New session.')

  // Persistence is worth asking for once there is history to lose: the first session made, or sessions found at
  // startup in a profile that was never asked (the browser may evict best-effort storage).
  onMount(() => void storage.refresh())
  const hasHistory = createMemo(() => ids().length > 0 || Object.keys(store.state.sessions).length > 0)
  createEffect(() => {
    if (hasHistory()) void storage.historyExists()
  })

  const openHit = (hit: { sessionID: string; messageID?: string }) => {
    // Asked before the session opens: the request waits for it, and older pages load until the message is there.
    if (hit.messageID) store.current.reveal(hit.sessionID, hit.messageID)
    props.onOpen(hit.sessionID)
  }
  const resultsList = () => document.getElementById(resultsID)

  return (
    <div
      id={props.id}
      class="sidebar"
      ref={element}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) props.onHide()
      }}
    >
      <div class="sidebar-head">
        <span class="brand">tabcode</span>
        <button type="button" class="icon-button sidebar-hide" aria-label="Hide sessions" onClick={() => props.onHide()}>
          <CloseIcon />
        </button>
      </div>
      {props.header}
      <nav class="sessions" aria-label="Sessions">
        <button
          ref={newSessionButton}
          type="button"
          class="button new-session"
          aria-keyshortcuts={keysFor('new-session')}
          title="New session (Alt+N)"
          onClick={() => props.onCreate()}
        >
          <PlusIcon />
          New session
        </button>
        <div class="session-filters">
          <SearchBox
            ref={(element) => (searchBox = element)}
            search={search}
            resultsID={resultsID}
            onMoveIntoResults={() => focusResult(resultsList(), 0)}
            onOpenFirst={() => {
              const first = search.hits()[0]
              if (first && search.searchedFor() === search.query()) openHit(first)
              else search.flush()
            }}
          />
          <label class="checkbox">
            <input
              type="checkbox"
              checked={list.showArchived()}
              onChange={(event) => list.setShowArchived(event.currentTarget.checked)}
            />
            Show archived
          </label>
        </div>
        <Show when={list.error()}>
          <p class="sidebar-note problem" role="alert">
            {list.error()}
          </p>
        </Show>
        <Show
          when={!search.active()}
          fallback={
            <SearchResults
              id={resultsID}
              search={search}
              now={now()}
              currentID={store.current.id()}
              limit={SEARCH_LIMIT}
              isArchived={(sessionID) => store.state.sessions[sessionID]?.time.archived !== undefined}
              onOpen={openHit}
              onLeave={(clear) => {
                if (clear) search.clear()
                searchBox.focus()
              }}
            />
          }
        >
          <>
            <ul class="session-list" aria-keyshortcuts={`${keysFor('previous-session')} ${keysFor('next-session')}`}>
              <For each={ids()}>
                {(sessionID) => (
                  <Show when={store.state.sessions[sessionID]}>
                    {(info) => (
                      <SessionItem
                        info={info()}
                        current={store.current.id() === sessionID}
                        now={now()}
                        renaming={renaming() === sessionID}
                        onOpen={() => props.onOpen(sessionID)}
                        onOpenSession={(id) => props.onOpen(id)}
                        onStartRename={() => setRenaming(sessionID)}
                        onRename={(title, refocus) => {
                          setRenaming(undefined)
                          if (refocus) focusRow(sessionID)
                          void store.rename(sessionID, title)
                        }}
                        onCancelRename={(refocus) => {
                          setRenaming(undefined)
                          if (refocus) focusRow(sessionID)
                        }}
                        onArchive={(archived) => void store.setArchived(sessionID, archived)}
                        onDelete={() => setDeleting(info())}
                      />
                    )}
                  </Show>
                )}
              </For>
            </ul>
            <Show when={ids().length === 0}>
              <p class="sidebar-note quiet">{list.loading() ? 'Loading sessions…' : emptyText()}</p>
            </Show>
            <Show when={list.hasMore()}>
              <button
                type="button"
                class="button button-small button-quiet load-more"
                disabled={list.loading()}
                onClick={() => void list.loadMore()}
              >
                {list.loading() ? 'Loading…' : 'Load more'}
              </button>
            </Show>
          </>
        </Show>
      </nav>
      <div class="sidebar-foot">
        {props.status}
        <StorageSummary status={storage} />
        <button
          type="button"
          class="button button-quiet button-small"
          aria-keyshortcuts={keysFor('show-shortcuts')}
          onClick={() => props.onShowShortcuts()}
        >
          <KeyboardIcon />
          Keyboard shortcuts
        </button>
        <ThemeButton />
        <Show when={props.onShowUsage}>
          {(show) => (
            <button type="button" class="button button-quiet button-small" onClick={() => show()()}>
              <ChartIcon />
              Usage
            </button>
          )}
        </Show>
        <button type="button" class="button button-quiet button-small" onClick={() => props.onShowSettings()}>
          <SettingsIcon />
          Settings
        </button>
      </div>
      <Show when={deleting()}>
        {(info) => (
          <DeleteSessionDialog info={info()} onConfirm={() => remove(info())} onClose={() => setDeleting(undefined)} />
        )}
      </Show>
    </div>
  )
}
