import { createEffect, createMemo, createSignal, on, onCleanup, type Accessor } from 'solid-js'
import { produce, type SetStoreFunction } from 'solid-js/store'
import type { SessionInfo } from '../../core/schema'
import type { ClientApi } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { positionOf, visibleSessions, type ListFilter, type ListPosition } from './session-list'
import type { UiState } from './state'
import { createNewestAnswer } from '../kit/load/newest-answer'

export const SESSION_PAGE_SIZE = 50
const SEARCH_DEBOUNCE_MS = 150

export interface SessionList {
  search: Accessor<string>
  setSearch(text: string): void
  showArchived: Accessor<boolean>
  setShowArchived(show: boolean): void
  /** The rows to show, newest update first; live events move and add rows without a refetch. */
  items: Accessor<SessionInfo[]>
  hasMore: Accessor<boolean>
  loading: Accessor<boolean>
  error: Accessor<string | undefined>
  loadMore(): Promise<void>
}

interface Paging {
  cursor?: string
  /** Set while more pages exist: rows that sort below it are not shown until they are fetched. */
  frontier?: ListPosition
}

/**
 * The sidebar's listing. Pages come from the worker and land in the shared `sessions` record; what is shown is
 * derived from that record with the worker's own filter rules, so sessions created or renamed in any tab appear
 * (and move) live.
 */
export function createSessionList(options: {
  api: ClientApi
  state: UiState
  setState: SetStoreFunction<UiState>
  projectID?: string
}): SessionList {
  const { api, state, setState } = options
  const [search, setSearch] = createSignal('')
  const [showArchived, setShowArchived] = createSignal(false)
  const [paging, setPaging] = createSignal<Paging>({})
  const [loading, setLoading] = createSignal(false)
  const [error, setError] = createSignal<string>()
  // A newer query makes older answers stale; they are dropped instead of overwriting it.
  const newest = createNewestAnswer()

  const filter = createMemo<ListFilter>(() => ({
    search: search(),
    archived: showArchived(),
    ...(options.projectID ? { projectID: options.projectID } : {}),
  }))
  // How many rows are shown. Live events can bring in any number of sessions (an import in another tab); the
  // sidebar shows one page more per "Load more" instead of rendering them all.
  const [shown, setShown] = createSignal(SESSION_PAGE_SIZE)
  const visible = createMemo(() => visibleSessions(Object.values(state.sessions), filter(), paging().frontier))
  const items = createMemo(() => visible().slice(0, shown()))

  async function fetchPage(reset: boolean): Promise<void> {
    const current = filter()
    const cursor = reset ? undefined : paging().cursor
    if (reset) setShown(SESSION_PAGE_SIZE)
    else setShown((count) => count + SESSION_PAGE_SIZE)
    if (!reset && !cursor) return
    setLoading(true)
    setError(undefined)
    const ask = () => api.listSessions({ search: current.search, archived: current.archived, limit: SESSION_PAGE_SIZE, ...(cursor ? { cursor } : {}) })
    await newest.load(ask, {
      answer: (page) => {
        setState(
          produce((draft) => {
            for (const info of page.items) draft.sessions[info.id] = info
          }),
        )
        const last = page.items[page.items.length - 1]
        setPaging(page.nextCursor && last ? { cursor: page.nextCursor, frontier: positionOf(last) } : {})
      },
      failure: (problem) => setError(`Couldn't list sessions: ${errorMessage(problem)}`),
      settled: () => setLoading(false),
    })
  }

  // First page now, then again whenever the filter changes (typing is debounced, the checkbox is not).
  let timer: ReturnType<typeof setTimeout> | undefined
  createEffect(
    on([search, showArchived], (_now, previous) => {
      clearTimeout(timer)
      const typing = previous !== undefined && previous[0] !== search()
      if (typing) timer = setTimeout(() => void fetchPage(true), SEARCH_DEBOUNCE_MS)
      else void fetchPage(true)
    }),
  )
  onCleanup(() => clearTimeout(timer))

  return {
    search,
    setSearch,
    showArchived,
    setShowArchived,
    items,
    hasMore: () => paging().cursor !== undefined || visible().length > shown(),
    loading,
    error,
    loadMore: () => fetchPage(false),
  }
}
