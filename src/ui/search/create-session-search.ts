import { createSignal, onCleanup, type Accessor } from 'solid-js'
import type { SearchHit } from '../../core/protocol'
import { failureMessage } from '../kit/format/storage-full'
import { createNewestAnswer } from '../kit/load/newest-answer'

export const SEARCH_DEBOUNCE_MS = 200
export const SEARCH_LIMIT = 50

export type SearchPhase = 'idle' | 'searching' | 'done' | 'failed'

export interface SessionSearch {
  query: Accessor<string>
  setQuery(text: string): void
  clear(): void
  /** The box holds something to search for: results replace the session list. */
  active: Accessor<boolean>
  phase: Accessor<SearchPhase>
  /** The hits for `searchedFor`, newest first. */
  hits: Accessor<SearchHit[]>
  /** The query the shown hits answer (the box may already hold more). */
  searchedFor: Accessor<string>
  error: Accessor<string | undefined>
  /** Searches now for what the box holds (Enter, or results that went stale). */
  flush(): void
}

export type SearchSessions = (input: { query: string; limit?: number }) => Promise<SearchHit[]>

/**
 * The sidebar's full-text search. The worker scans titles and message text in IndexedDB, so it works offline; typing
 * is debounced, and an answer to an older query never replaces a newer one.
 */
export function createSessionSearch(options: { search: SearchSessions; debounceMs?: number; limit?: number }): SessionSearch {
  const debounce = options.debounceMs ?? SEARCH_DEBOUNCE_MS
  const [query, setQueryText] = createSignal('')
  const [phase, setPhase] = createSignal<SearchPhase>('idle')
  const [hits, setHits] = createSignal<SearchHit[]>([])
  const [searchedFor, setSearchedFor] = createSignal('')
  const [error, setError] = createSignal<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const newest = createNewestAnswer()

  async function run(text: string): Promise<void> {
    clearTimeout(timer)
    if (!text.trim()) {
      newest.supersede()
      setPhase('idle')
      setHits([])
      setSearchedFor('')
      setError(undefined)
      return
    }
    setPhase('searching')
    await newest.load(() => options.search({ query: text, limit: options.limit ?? SEARCH_LIMIT }), {
      answer: (found) => {
        setHits(found)
        setSearchedFor(text)
        setError(undefined)
        setPhase('done')
      },
      failure: (problem) => {
        setHits([])
        setSearchedFor(text)
        setError(`Couldn't search: ${failureMessage(problem)}`)
        setPhase('failed')
      },
    })
  }

  function setQuery(text: string): void {
    setQueryText(text)
    clearTimeout(timer)
    if (!text.trim()) {
      void run('')
      return
    }
    // Typing shows "Searching…" at once; the scan itself waits for a pause.
    newest.supersede()
    setPhase('searching')
    timer = setTimeout(() => void run(text), debounce)
  }
  onCleanup(() => clearTimeout(timer))

  return {
    query,
    setQuery,
    clear: () => setQuery(''),
    active: () => query().trim().length > 0,
    phase,
    hits,
    searchedFor,
    error,
    flush: () => void run(query()),
  }
}
