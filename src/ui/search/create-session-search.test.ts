// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createRoot } from 'solid-js'
import { AppError } from '../../core/errors'
import type { SearchHit } from '../../core/protocol'
import { createSessionSearch, type SearchSessions } from './create-session-search'

const hit = (sessionID: string, snippet: string): SearchHit => ({ sessionID, title: sessionID, snippet, match: { start: 0, length: 3 }, time: 1 })

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => (resolve = done))
  return { promise, resolve }
}

const disposers: Array<() => void> = []
beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
  vi.useRealTimers()
})

function make(search: SearchSessions) {
  return createRoot((dispose) => {
    disposers.push(dispose)
    return createSessionSearch({ search, debounceMs: 200 })
  })
}

describe('session search', () => {
  it('searches once typing pauses, not per keystroke', async () => {
    const search = vi.fn<SearchSessions>(async ({ query }) => [hit('ses_a', query)])
    const state = make(search)
    for (const text of ['p', 'pa', 'par', 'parser']) state.setQuery(text)
    expect(state.phase()).toBe('searching')
    await vi.advanceTimersByTimeAsync(199)
    expect(search).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(search).toHaveBeenCalledOnce()
    expect(search).toHaveBeenCalledWith({ query: 'parser', limit: 50 })
    expect(state.phase()).toBe('done')
    expect(state.hits().map((found) => found.snippet)).toEqual(['parser'])
    expect(state.searchedFor()).toBe('parser')
  })

  it('never lets a slow answer to an older query replace a newer one', async () => {
    const slow = deferred<SearchHit[]>()
    const search = vi.fn<SearchSessions>(({ query }) => (query === 'old' ? slow.promise : Promise.resolve([hit('ses_new', 'new')])))
    const state = make(search)
    state.setQuery('old')
    await vi.advanceTimersByTimeAsync(200)
    state.setQuery('new')
    await vi.advanceTimersByTimeAsync(200)
    slow.resolve([hit('ses_old', 'old')])
    await vi.advanceTimersByTimeAsync(0)
    expect(state.hits().map((found) => found.sessionID)).toEqual(['ses_new'])
    expect(state.searchedFor()).toBe('new')
  })

  it('clearing returns to idle at once and drops a pending search', async () => {
    const search = vi.fn<SearchSessions>(async () => [hit('ses_a', 'x')])
    const state = make(search)
    state.setQuery('lexer')
    state.clear()
    await vi.advanceTimersByTimeAsync(500)
    expect(search).not.toHaveBeenCalled()
    expect(state.active()).toBe(false)
    expect(state.phase()).toBe('idle')
    expect(state.hits()).toEqual([])
  })

  it('says a failure in words, with the clear wording when storage is full', async () => {
    const state = make(async () => {
      throw new AppError('StorageFullError', "The browser's storage for tabcode is full, so the last change was not saved.", { detail: 'x' })
    })
    state.setQuery('parser')
    await vi.advanceTimersByTimeAsync(200)
    expect(state.phase()).toBe('failed')
    expect(state.error()).toMatch(/^Couldn't search: The browser's storage for tabcode is full/)
  })
})
