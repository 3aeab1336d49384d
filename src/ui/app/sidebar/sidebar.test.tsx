// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { createStore } from 'solid-js/store'
import { render } from 'solid-js/web'
import type { SessionInfo } from '../../../core/schema'
import type { SearchHit } from '../../../core/protocol'
import { SEARCH_DEBOUNCE_MS } from '../../search/create-session-search'
import { createStorageStatus } from '../../storage/create-storage-status'
import type { SessionStore } from '../../store/create-session-store'
import { SessionStoreContext } from '../../store/session-store-context'
import { emptyState } from '../../store/state'
import { Sidebar } from './sidebar'

const session = (id: string, title: string, updated: number): SessionInfo =>
  ({ id, slug: id, projectID: 'prj_a', directory: '/', title, version: '0', time: { created: updated, updated } }) as SessionInfo

const SESSIONS = [session('ses_parser', 'Parser work', 2_000), session('ses_notes', 'Release notes', 1_000)]
const HITS: SearchHit[] = [
  { sessionID: 'ses_notes', title: 'Release notes', messageID: 'msg_1', snippet: 'then tidy the lexer tests', match: { start: 14, length: 5 }, time: 1_500 },
  { sessionID: 'ses_parser', title: 'Parser work', messageID: 'msg_2', snippet: '…the lexer reads tokens', match: { start: 5, length: 5 }, time: 1_200 },
]

const cleanups: Array<() => void> = []
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  vi.useRealTimers()
})

/** The sidebar over a store that holds two sessions, and a worker whose search answers from `answer`. */
function mount(answer: (query: string) => SearchHit[] = (query) => (query.includes('lexer') ? HITS : [])) {
  const [state] = createStore({ ...emptyState(), sessions: Object.fromEntries(SESSIONS.map((info) => [info.id, info])) })
  const [current] = createSignal<string>()
  const searchSessions = vi.fn(async (input: { query: string }) => answer(input.query))
  const persist = vi.fn(async () => false)
  const reveal = vi.fn()
  const store = {
    state,
    api: { searchSessions },
    list: {
      items: () => SESSIONS,
      showArchived: () => false,
      setShowArchived: () => {},
      error: () => undefined,
      loading: () => false,
      hasMore: () => false,
      loadMore: async () => {},
    },
    current: { id: current, reveal },
    loadChildren: async () => {},
  } as unknown as SessionStore
  const opened: string[] = []
  const flag = { asked: false }
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => {
    const storage = createStorageStatus({
      manager: { persist, persisted: async () => false, estimate: async () => ({ usage: 2_000_000, quota: 100_000_000 }) },
      memory: { get: () => flag.asked, set: () => void (flag.asked = true) },
    })
    return (
      <SessionStoreContext.Provider value={store}>
        <Sidebar
          id="sidebar"
          storage={storage}
          onOpen={(id) => opened.push(id)}
          onCreate={() => {}}
          onHide={() => {}}
          onShowShortcuts={() => {}}
          onShowSettings={() => {}}
        />
      </SessionStoreContext.Provider>
    )
  }, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  const box = container.querySelector<HTMLInputElement>('input[type="search"][aria-label="Search sessions"]')!
  const type = async (text: string) => {
    box.value = text
    box.dispatchEvent(new InputEvent('input', { bubbles: true }))
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS)
  }
  const key = (target: Element, name: string) => target.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }))
  const results = () => container.querySelector<HTMLElement>('ul[aria-label="Search results"]')
  const resultLinks = () => [...(results()?.querySelectorAll<HTMLAnchorElement>('a') ?? [])]
  const sessionList = () => container.querySelector('.session-list')
  return { container, box, type, key, results, resultLinks, sessionList, searchSessions, opened, reveal, persist, flag }
}

describe('sidebar search', () => {
  it('finds message text, shows each hit with its match marked, and opens the session of the one chosen', async () => {
    const view = mount()
    expect(view.sessionList()).not.toBeNull()
    await view.type('lexer')
    expect(view.searchSessions).toHaveBeenCalledWith({ query: 'lexer', limit: 50 })
    expect(view.sessionList()).toBeNull()
    const links = view.resultLinks()
    expect(links.map((link) => link.querySelector('.search-result-title')?.textContent)).toEqual(['Release notes', 'Parser work'])
    expect(links[0]!.querySelector('.search-result-snippet')?.textContent).toBe('then tidy the lexer tests')
    expect([...view.results()!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['lexer', 'lexer'])
    expect(links[1]!.getAttribute('href')).toBe('#/session/ses_parser')
    links[1]!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }))
    expect(view.opened).toEqual(['ses_parser'])
    // The message the hit came from is asked for, to be scrolled to once its session is open.
    expect(view.reveal).toHaveBeenCalledWith('ses_parser', 'msg_2')
  })

  it('moves with the keyboard: ArrowDown into the results, between them, back up to the box; Escape clears', async () => {
    const view = mount()
    view.box.focus()
    await view.type('lexer')
    view.key(view.box, 'ArrowDown')
    const [first, second] = view.resultLinks()
    expect(document.activeElement).toBe(first)
    view.key(first!, 'ArrowDown')
    expect(document.activeElement).toBe(second)
    view.key(second!, 'ArrowDown')
    expect(document.activeElement).toBe(second)
    view.key(second!, 'ArrowUp')
    view.key(first!, 'ArrowUp')
    expect(document.activeElement).toBe(view.box)
    view.key(view.box, 'Enter')
    expect(view.opened).toEqual(['ses_notes'])
    expect(view.key(view.box, 'Escape')).toBe(false)
    expect(view.box.value).toBe('')
    expect(view.results()).toBeNull()
    expect(view.sessionList()).not.toBeNull()
  })

  it('says when nothing matches', async () => {
    const view = mount()
    await view.type('zebra')
    expect(view.results()).toBeNull()
    expect(view.container.querySelector('[role="status"]')?.textContent).toBe('No matches for “zebra” in titles or messages.')
  })

  it('shows a failed search in words instead of an empty list', async () => {
    const view = mount(() => {
      throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' })
    })
    await view.type('lexer')
    expect(view.container.querySelector('[role="alert"]')?.textContent).toMatch(/^Couldn't search: The browser's storage for tabcode is full/)
  })
})

describe('sidebar storage', () => {
  it('asks once for persistent storage when there are sessions, and shows usage in its foot', async () => {
    const view = mount()
    await vi.advanceTimersByTimeAsync(0)
    expect(view.persist).toHaveBeenCalledOnce()
    expect(view.flag.asked).toBe(true)
    const toggle = view.container.querySelector<HTMLButtonElement>('.sidebar-foot button[aria-expanded]')!
    expect(toggle.textContent).toBe('Storage · 2 MB')
  })
})
