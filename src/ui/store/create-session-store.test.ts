import { createEffect, createRoot, onCleanup } from 'solid-js'
import { describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../../core/event'
import type { MessageWithParts } from '../../core/dto/messages'
import type { InboxEntry, Message, SessionInfo, Todo } from '../../core/schema'
import type { ClientApi } from '../../core/protocol'
import type { WorkerConnection } from '../worker-client'
import { createSessionStore, type SessionStore } from './create-session-store'
import { matchesFilter, visibleSessions } from './session-list'

const pad = (n: number) => String(n).padStart(4, '0')

function session(n: number, patch: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: `ses_${pad(n)}`,
    slug: 'keen-heron',
    projectID: 'prj_1',
    directory: '/workspace',
    title: `Session ${n}`,
    version: '0.1.0',
    time: { created: n, updated: n },
    ...patch,
  }
}

function message(sessionID: string, n: number): MessageWithParts {
  const info: Message = {
    id: `msg_${pad(n)}`,
    sessionID,
    role: 'user',
    time: { created: n },
    agent: 'build',
    model: { providerID: 'local', modelID: 'm' },
  }
  return { info, parts: [{ id: `prt_${pad(n)}`, sessionID, messageID: info.id, type: 'text', text: `hello ${n}` }] }
}

/** An in-memory worker: pages by plain offsets (the cursor is opaque to the UI anyway). */
function makeWorker(sessions: SessionInfo[], history: Record<string, MessageWithParts[]> = {}) {
  const handlers = new Set<(event: SessionEvent) => void>()
  const emit = (event: SessionEvent) => handlers.forEach((handler) => handler(event))
  const api = {
    listSessions: vi.fn(async (input: { search?: string; archived?: boolean; limit?: number; cursor?: string }) => {
      const matching = visibleSessions(sessions, { search: input.search ?? '', archived: !!input.archived })
      const start = input.cursor ? Number(input.cursor) : 0
      const limit = input.limit ?? 50
      const items = matching.slice(start, start + limit)
      return { items, ...(start + limit < matching.length ? { nextCursor: String(start + limit) } : {}) }
    }),
    getSession: vi.fn(async (id: string) => {
      const found = sessions.find((info) => info.id === id)
      if (!found) throw Object.assign(new Error(`session ${id} was not found`), { name: 'NotFoundError' })
      return found
    }),
    pageMessages: vi.fn(async (input: { sessionID: string; limit?: number; before?: string }) => {
      const all = history[input.sessionID] ?? []
      const end = input.before ? Number(input.before) : all.length
      const limit = input.limit ?? 50
      const start = Math.max(0, end - limit)
      return { messages: all.slice(start, end), ...(start > 0 ? { nextCursor: String(start) } : {}) }
    }),
    removeSession: vi.fn(async (id: string) => {
      const removed = sessions.filter((info) => info.id === id || info.parentID === id)
      sessions = sessions.filter((info) => !removed.includes(info))
      return { removed: removed.map((info) => info.id) }
    }),
    openSession: vi.fn(async (_id: string) => ({ repaired: false })),
    todos: vi.fn(async (_id: string): Promise<Todo[]> => []),
    queuedPrompts: vi.fn(async (_id: string): Promise<InboxEntry[]> => []),
    pendingAsks: vi.fn(async (_id: string) => []),
    flush: vi.fn(async () => {}),
    renameSession: vi.fn(async (id: string, title: string) => {
      const index = sessions.findIndex((info) => info.id === id)
      sessions[index] = { ...sessions[index]!, title }
      return sessions[index]!
    }),
  }
  const connection: WorkerConnection = {
    api: api as unknown as ClientApi,
    listen(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    onForeignProtocol() {},
  }
  return { api, connection, emit, add: (info: SessionInfo) => sessions.push(info) }
}

function withStore(connection: WorkerConnection): { store: SessionStore; dispose: () => void } {
  return createRoot((dispose) => ({ store: createSessionStore(connection), dispose }))
}

const titles = (store: SessionStore) => store.list.items().map((info) => info.title)

describe('createSessionStore: the list', () => {
  it('loads the first page newest first and pages on with Load more', async () => {
    const worker = makeWorker(Array.from({ length: 60 }, (_, index) => session(index + 1)))
    const { store, dispose } = withStore(worker.connection)
    await vi.waitFor(() => expect(store.list.items()).toHaveLength(50))
    expect(titles(store)[0]).toBe('Session 60')
    expect(store.list.hasMore()).toBe(true)
    await store.list.loadMore()
    expect(store.list.items()).toHaveLength(60)
    expect(titles(store).at(-1)).toBe('Session 1')
    expect(store.list.hasMore()).toBe(false)
    dispose()
  })

  it('shows sessions created in other tabs at once, but not their children', async () => {
    const worker = makeWorker([session(1)])
    const { store, dispose } = withStore(worker.connection)
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 1']))
    worker.emit({ type: 'session.created', info: session(2) })
    worker.emit({ type: 'session.created', info: session(3, { parentID: session(2).id }) })
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 2', 'Session 1']))
    worker.emit({ type: 'session.updated', info: session(1, { time: { created: 1, updated: 10 } }) })
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 1', 'Session 2']))
    dispose()
  })

  it('takes a burst of thousands of new sessions in one update and shows one page of them', async () => {
    const worker = makeWorker([session(1)])
    const { store, dispose } = withStore(worker.connection)
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 1']))
    let updates = 0
    createRoot((disposeCounter) => {
      createEffect(() => {
        store.list.items()
        updates++
      })
      onCleanup(disposeCounter)
    })
    const before = updates
    for (let index = 2; index <= 5001; index++) worker.emit({ type: 'session.created', info: session(index) })
    await vi.waitFor(() => expect(titles(store)[0]).toBe('Session 5001'))
    expect(updates - before).toBe(1)
    expect(store.list.items()).toHaveLength(50)
    expect(store.list.hasMore()).toBe(true)
    await store.list.loadMore()
    expect(store.list.items()).toHaveLength(100)
    dispose()
  })

  it('applies the worker\'s rules to the toggle: archived rows appear and disappear', async () => {
    const archived = session(2, { time: { created: 2, updated: 2, archived: 3 } })
    const worker = makeWorker([session(1), archived])
    const { store, dispose } = withStore(worker.connection)
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 1']))
    store.list.setShowArchived(true)
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 2', 'Session 1']))
    expect(worker.api.listSessions).toHaveBeenLastCalledWith(expect.objectContaining({ archived: true }))
    store.list.setShowArchived(false)
    expect(titles(store)).toEqual(['Session 1'])
    expect(matchesFilter(archived, { search: '', archived: false })).toBe(false)
    dispose()
  })
})

describe('createSessionStore: the open session', () => {
  it('loads older pages until a message asked for is there, then hands it to the view once', async () => {
    const long = session(1)
    const history = { [long.id]: Array.from({ length: 900 }, (_, index) => message(long.id, index + 1)) }
    const worker = makeWorker([long], history)
    const { store, dispose } = withStore(worker.connection)
    // A search hit in an old message: asked for before the session opens, as the sidebar does.
    store.current.reveal(long.id, 'msg_0100')
    await store.current.open(long.id)
    await vi.waitFor(() => expect(store.current.revealing()).toBe('msg_0100'))
    expect(store.current.messages().some((info) => info.id === 'msg_0100')).toBe(true)
    // The first page, then bigger ones only as far as needed: 850 of 900 messages.
    expect(worker.api.pageMessages).toHaveBeenCalledTimes(5)
    expect(store.current.hasOlder()).toBe(true)
    store.current.revealed()
    expect(store.current.revealing()).toBeUndefined()
    dispose()
  })

  it('gives up on a message that is not in the session once nothing older is left', async () => {
    const small = session(1)
    const worker = makeWorker([small], { [small.id]: Array.from({ length: 120 }, (_, index) => message(small.id, index + 1)) })
    const { store, dispose } = withStore(worker.connection)
    store.current.reveal(small.id, 'msg_9999')
    await store.current.open(small.id)
    await vi.waitFor(() => expect(store.current.hasOlder()).toBe(false))
    await vi.waitFor(() => expect(store.current.loading()).toBe(false))
    expect(store.current.revealing()).toBeUndefined()
    expect(worker.api.pageMessages).toHaveBeenCalledTimes(2)
    // A later page load does not restart the search.
    expect(store.current.messages()).toHaveLength(120)
    dispose()
  })

  it('ignores a request for another session', async () => {
    const [first, second] = [session(1), session(2)]
    const worker = makeWorker([first, second], {
      [first.id]: Array.from({ length: 80 }, (_, index) => message(first.id, index + 1)),
      [second.id]: [message(second.id, 500)],
    })
    const { store, dispose } = withStore(worker.connection)
    store.current.reveal(second.id, 'msg_0500')
    await store.current.open(first.id)
    expect(store.current.revealing()).toBeUndefined()
    expect(worker.api.pageMessages).toHaveBeenCalledTimes(1)
    dispose()
  })

  it('loads the newest page, then older ones, and unloads on leaving', async () => {
    const first = session(1)
    const second = session(2)
    const history = {
      [first.id]: Array.from({ length: 70 }, (_, index) => message(first.id, index + 1)),
      [second.id]: [message(second.id, 100)],
    }
    const worker = makeWorker([first, second], history)
    const { store, dispose } = withStore(worker.connection)
    await store.current.open(first.id)
    expect(store.current.messages()).toHaveLength(50)
    expect(store.current.messages()[0]?.id).toBe('msg_0021')
    expect(store.current.hasOlder()).toBe(true)
    await store.current.loadOlder()
    expect(store.current.messages()).toHaveLength(70)
    expect(store.current.hasOlder()).toBe(false)
    expect(store.partsOf('msg_0001')).toHaveLength(1)

    await store.current.open(second.id)
    expect(store.state.messages[first.id]).toBeUndefined()
    expect(store.partsOf('msg_0001')).toEqual([])
    expect(store.current.messages().map((info) => info.id)).toEqual(['msg_0100'])
    dispose()
  })

  it('closes the session when it is deleted, here or in another tab', async () => {
    const worker = makeWorker([session(1), session(2)], {})
    const { store, dispose } = withStore(worker.connection)
    await store.current.open(session(1).id)
    worker.emit({ type: 'session.deleted', info: session(1) })
    await vi.waitFor(() => expect(store.current.id()).toBeUndefined())

    await store.current.open(session(2).id)
    expect(await store.remove(session(2).id)).toBe(true)
    expect(store.current.id()).toBeUndefined()
    expect(store.state.sessions[session(2).id]).toBeUndefined()
    dispose()
  })

  it('asks the worker to repair the session and reads its todos when it opens', async () => {
    const worker = makeWorker([session(1), session(2)], {})
    const todo: Todo = { id: 't1', content: 'Write the parser', status: 'in_progress', priority: 'high' }
    worker.api.openSession.mockResolvedValueOnce({ repaired: true })
    worker.api.todos.mockResolvedValueOnce([todo])
    const { store, dispose } = withStore(worker.connection)
    await store.current.open(session(1).id)
    expect(worker.api.openSession).toHaveBeenCalledWith(session(1).id)
    await vi.waitFor(() => expect(store.current.repaired()).toBe(true))
    expect(store.state.todos[session(1).id]).toEqual([todo])
    store.current.dismissRepaired()
    expect(store.current.repaired()).toBe(false)

    // A live list that arrives before the read is newer than what the read returns.
    const live: Todo = { ...todo, status: 'completed' }
    let answer!: (todos: Todo[]) => void
    worker.api.todos.mockReturnValueOnce(new Promise<Todo[]>((resolve) => (answer = resolve)))
    await store.current.open(session(2).id)
    worker.emit({ type: 'todo.updated', sessionID: session(2).id, todos: [live] })
    await vi.waitFor(() => expect(store.state.todos[session(2).id]).toEqual([live]))
    answer([todo])
    await Promise.resolve()
    expect(store.state.todos[session(2).id]).toEqual([live])
    expect(store.current.repaired()).toBe(false)
    dispose()
  })

  it('reports a session that does not exist instead of hanging', async () => {
    const worker = makeWorker([])
    const { store, dispose } = withStore(worker.connection)
    await store.current.open('ses_9999')
    expect(store.current.error()).toMatch(/not found/)
    expect(store.current.loading()).toBe(false)
    dispose()
  })
})

describe('createSessionStore: messages fetched on demand (sync)', () => {
  it('fetches a session found with no messages here, says so meanwhile, then shows what came', async () => {
    const history: Record<string, MessageWithParts[]> = {}
    const worker = makeWorker([session(1)], history)
    let finish!: () => void
    const fetchSyncedSession = vi.fn(
      (input: { sessionID: string }) =>
        new Promise<{ fetched: number }>((done) => {
          finish = () => {
            history[input.sessionID] = [message(input.sessionID, 1), message(input.sessionID, 2)]
            done({ fetched: 2 })
          }
        }),
    )
    Object.assign(worker.api, { fetchSyncedSession })
    const { store, dispose } = createRoot((dispose) => ({
      store: createSessionStore(worker.connection, { fetchesOnDemand: async () => true }),
      dispose,
    }))
    void store.current.open('ses_0001')
    await vi.waitFor(() => expect(store.current.fetching()).toBe(true))
    expect(fetchSyncedSession).toHaveBeenCalledWith({ sessionID: 'ses_0001' })
    expect(store.current.messages()).toEqual([])
    finish()
    await vi.waitFor(() => expect(store.current.messages().map((info) => info.id)).toEqual(['msg_0001', 'msg_0002']))
    expect(store.current.fetching()).toBe(false)
    dispose()
  })

  it('fetches nothing when sync takes every message, when messages are here, or for a session made in this tab', async () => {
    const worker = makeWorker([session(1), session(2)], { ses_0002: [message('ses_0002', 1)] })
    const fetchSyncedSession = vi.fn(async () => ({ fetched: 0 }))
    Object.assign(worker.api, { fetchSyncedSession, createSession: vi.fn(async () => session(3)) })
    let onDemand = false
    const { store, dispose } = createRoot((dispose) => ({
      store: createSessionStore(worker.connection, { fetchesOnDemand: async () => onDemand }),
      dispose,
    }))
    await store.current.open('ses_0001')
    onDemand = true
    await store.current.open('ses_0002')
    await store.createSession()
    expect(store.current.id()).toBe('ses_0003')
    expect(fetchSyncedSession).not.toHaveBeenCalled()
    dispose()
  })
})

describe('createSessionStore: actions', () => {
  it('applies results at once and words failures for the user', async () => {
    const worker = makeWorker([session(1)])
    const { store, dispose } = withStore(worker.connection)
    await vi.waitFor(() => expect(titles(store)).toEqual(['Session 1']))
    expect(await store.rename(session(1).id, 'Parser work')).toBe(true)
    expect(titles(store)).toEqual(['Parser work'])

    worker.api.renameSession.mockRejectedValueOnce(new Error('A session title cannot be empty'))
    expect(await store.rename(session(1).id, ' ')).toBe(false)
    expect(store.problem()).toBe("Couldn't rename the session: A session title cannot be empty")
    store.dismissProblem()
    expect(store.problem()).toBeUndefined()
    dispose()
  })
})
