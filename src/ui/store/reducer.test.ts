import { createComputed, createEffect, createRoot } from 'solid-js'
import { createStore, produce } from 'solid-js/store'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/event'
import type { MessageWithParts } from '../../core/dto/messages'
import type { Message, Part, SessionInfo } from '../../core/schema'
import { applyEvent, applyHistory, unloadHistory } from './reducer'
import { emptyState, type UiState } from './state'

// Ids sort in creation order, like the real ones: a fixed-width counter after the prefix.
const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(4, '0')}`

function session(n: number, patch: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: id('ses', n),
    slug: 'calm-otter',
    projectID: 'prj_1',
    directory: '/workspace',
    title: `Session ${n}`,
    version: '0.1.0',
    time: { created: 1000 + n, updated: 1000 + n },
    ...patch,
  }
}

function user(sessionNumber: number, n: number): Message {
  return {
    id: id('msg', n),
    sessionID: id('ses', sessionNumber),
    role: 'user',
    time: { created: 2000 + n },
    agent: 'build',
    model: { providerID: 'local', modelID: 'test-model' },
  }
}

function text(message: Message, n: number, value = `text ${n}`): Part {
  return { id: id('prt', n), sessionID: message.sessionID, messageID: message.id, type: 'text', text: value }
}

function reasoning(message: Message, n: number, value = ''): Part {
  return { id: id('prt', n), sessionID: message.sessionID, messageID: message.id, type: 'reasoning', text: value, time: { start: 1 } }
}

function tool(message: Message, n: number): Part {
  return {
    id: id('prt', n),
    sessionID: message.sessionID,
    messageID: message.id,
    type: 'tool',
    callID: `call_${n}`,
    tool: 'bash',
    state: { status: 'pending', input: {}, raw: '' },
  }
}

/** A real Solid store driven the way the app drives it: every event through `produce`. */
function makeStore(initial: UiState = emptyState()) {
  const [state, setState] = createStore<UiState>(initial)
  return {
    state,
    apply: (...events: SessionEvent[]) => {
      for (const event of events) setState(produce((draft) => applyEvent(draft, event)))
    },
    history: (sessionID: string, page: MessageWithParts[]) => setState(produce((draft) => applyHistory(draft, sessionID, page))),
    unload: (sessionID: string) => setState(produce((draft) => unloadHistory(draft, sessionID))),
  }
}

const ids = (list: { id: string }[] | undefined) => (list ?? []).map((item) => item.id)

describe('applyEvent: sessions', () => {
  it('adds created sessions and replaces them on update', () => {
    const store = makeStore()
    store.apply({ type: 'session.created', info: session(1) }, { type: 'session.created', info: session(2) })
    expect(Object.keys(store.state.sessions).sort()).toEqual([id('ses', 1), id('ses', 2)])
    store.apply({ type: 'session.updated', info: session(1, { title: 'Renamed' }) })
    expect(store.state.sessions[id('ses', 1)]?.title).toBe('Renamed')
    expect(store.state.sessions[id('ses', 2)]?.title).toBe('Session 2')
  })

  it('deletes a session with its loaded messages, their parts, status and error, and nothing else', () => {
    const store = makeStore()
    const kept = user(2, 10)
    const gone = [user(1, 1), user(1, 2)]
    store.apply({ type: 'session.created', info: session(1) }, { type: 'session.created', info: session(2) })
    store.history(id('ses', 1), gone.map((info, index) => ({ info, parts: [text(info, index + 1)] })))
    store.history(id('ses', 2), [{ info: kept, parts: [text(kept, 10)] }])
    store.apply(
      { type: 'session.status', sessionID: id('ses', 1), status: { type: 'busy' } },
      { type: 'session.error', sessionID: id('ses', 1), error: { name: 'UnknownError', data: { message: 'boom' } } },
    )

    store.apply({ type: 'session.deleted', info: session(1) })

    expect(store.state.sessions[id('ses', 1)]).toBeUndefined()
    expect(store.state.messages[id('ses', 1)]).toBeUndefined()
    expect(store.state.parts[id('msg', 1)]).toBeUndefined()
    expect(store.state.parts[id('msg', 2)]).toBeUndefined()
    expect(store.state.status[id('ses', 1)]).toBeUndefined()
    expect(store.state.errors[id('ses', 1)]).toBeUndefined()
    expect(ids(store.state.messages[id('ses', 2)])).toEqual([id('msg', 10)])
    expect(ids(store.state.parts[id('msg', 10)])).toEqual([id('prt', 10)])
  })

  it('deletes a whole family when the worker reports children first', () => {
    const store = makeStore()
    const parent = session(1)
    const child = session(2, { parentID: parent.id })
    const childMessage = user(2, 5)
    store.apply({ type: 'session.created', info: parent }, { type: 'session.created', info: child })
    store.history(child.id, [{ info: childMessage, parts: [text(childMessage, 5)] }])
    store.apply({ type: 'session.deleted', info: child }, { type: 'session.deleted', info: parent })
    expect(store.state.sessions).toEqual({})
    expect(store.state.messages).toEqual({})
    expect(store.state.parts).toEqual({})
  })
})

describe('applyEvent: messages', () => {
  it('ignores messages of sessions whose history is not loaded', () => {
    const store = makeStore()
    store.apply({ type: 'message.updated', info: user(1, 1) })
    expect(store.state.messages).toEqual({})
  })

  it('keeps messages in id order whatever order they arrive in, and upserts instead of duplicating', () => {
    const store = makeStore()
    store.history(id('ses', 1), [])
    for (const n of [3, 1, 4, 2]) store.apply({ type: 'message.updated', info: user(1, n) })
    expect(ids(store.state.messages[id('ses', 1)])).toEqual([1, 2, 3, 4].map((n) => id('msg', n)))

    const updated = { ...user(1, 2), agent: 'plan' }
    store.apply({ type: 'message.updated', info: updated })
    const list = store.state.messages[id('ses', 1)]!
    expect(list).toHaveLength(4)
    expect(list[1]).toMatchObject({ id: id('msg', 2), agent: 'plan' })
  })

  it('removes a message and its parts', () => {
    const store = makeStore()
    const first = user(1, 1)
    const second = user(1, 2)
    store.history(id('ses', 1), [
      { info: first, parts: [text(first, 1)] },
      { info: second, parts: [text(second, 2)] },
    ])
    store.apply({ type: 'message.removed', sessionID: id('ses', 1), messageID: first.id })
    expect(ids(store.state.messages[id('ses', 1)])).toEqual([second.id])
    expect(store.state.parts[first.id]).toBeUndefined()
    expect(ids(store.state.parts[second.id])).toEqual([id('prt', 2)])
  })
})

describe('applyEvent: parts', () => {
  it('ignores parts of unloaded sessions', () => {
    const store = makeStore()
    store.apply({ type: 'part.updated', part: text(user(1, 1), 1) })
    expect(store.state.parts).toEqual({})
  })

  it('upserts parts in id order and replaces an updated part in place', () => {
    const store = makeStore()
    const message = user(1, 1)
    store.history(id('ses', 1), [{ info: message, parts: [] }])
    for (const n of [2, 3, 1]) store.apply({ type: 'part.updated', part: text(message, n) })
    expect(ids(store.state.parts[message.id])).toEqual([1, 2, 3].map((n) => id('prt', n)))

    store.apply({ type: 'part.updated', part: text(message, 2, 'final') })
    const list = store.state.parts[message.id]!
    expect(list).toHaveLength(3)
    expect(list[1]).toMatchObject({ id: id('prt', 2), text: 'final' })
  })

  it('creates the part list of a message it has not seen, as long as the session is loaded', () => {
    const store = makeStore()
    store.history(id('ses', 1), [])
    const message = user(1, 7)
    store.apply({ type: 'part.updated', part: text(message, 1) })
    expect(ids(store.state.parts[message.id])).toEqual([id('prt', 1)])
  })

  it('removes a part', () => {
    const store = makeStore()
    const message = user(1, 1)
    store.history(id('ses', 1), [{ info: message, parts: [text(message, 1), text(message, 2)] }])
    store.apply({ type: 'part.removed', sessionID: message.sessionID, messageID: message.id, partID: id('prt', 1) })
    expect(ids(store.state.parts[message.id])).toEqual([id('prt', 2)])
    // Removing what is already gone is a no-op, not an error.
    store.apply({ type: 'part.removed', sessionID: message.sessionID, messageID: message.id, partID: id('prt', 1) })
    expect(ids(store.state.parts[message.id])).toEqual([id('prt', 2)])
  })
})

describe('applyEvent: deltas', () => {
  const delta = (message: Message, n: number, value: string): SessionEvent => ({
    type: 'part.delta',
    sessionID: message.sessionID,
    messageID: message.id,
    partID: id('prt', n),
    field: 'text',
    delta: value,
  })

  it('appends to text and reasoning parts', () => {
    const store = makeStore()
    const message = user(1, 1)
    store.history(id('ses', 1), [{ info: message, parts: [text(message, 1, 'Hel'), reasoning(message, 2, 'Let me')] }])
    store.apply(delta(message, 1, 'lo'), delta(message, 1, ' world'), delta(message, 2, ' think'))
    const [first, second] = store.state.parts[message.id]!
    expect(first).toMatchObject({ type: 'text', text: 'Hello world' })
    expect(second).toMatchObject({ type: 'reasoning', text: 'Let me think' })
  })

  it('ignores deltas for unloaded sessions, unknown parts and parts without text', () => {
    const store = makeStore()
    const loaded = user(1, 1)
    store.history(id('ses', 1), [{ info: loaded, parts: [tool(loaded, 1)] }])
    store.apply(delta(user(2, 2), 5, 'nobody'), delta(loaded, 9, 'missing'), delta(loaded, 1, 'tool'))
    expect(store.state.parts[id('msg', 2)]).toBeUndefined()
    expect(store.state.parts[loaded.id]).toEqual([tool(loaded, 1)])
  })

  it('touches only the streamed text: observers of the message list do not re-run', () => {
    const message = user(1, 1)
    const counts = { list: 0, text: 0 }
    // Effects created during a root's setup run when the setup returns, so the updates happen outside it.
    const { store, dispose } = createRoot((dispose) => {
      const store = makeStore()
      store.history(id('ses', 1), [{ info: message, parts: [text(message, 1, '')] }])
      createEffect(() => {
        void store.state.messages[id('ses', 1)]?.length
        counts.list++
      })
      createEffect(() => {
        const part = store.state.parts[message.id]?.[0]
        void (part?.type === 'text' && part.text)
        counts.text++
      })
      return { store, dispose }
    })
    expect(counts).toEqual({ list: 1, text: 1 })
    store.apply(delta(message, 1, 'a'), delta(message, 1, 'b'))
    expect(counts).toEqual({ list: 1, text: 3 })
    dispose()
  })
})

describe('applyEvent: status and errors', () => {
  it('records live status and session errors', () => {
    const store = makeStore()
    store.apply({ type: 'session.status', sessionID: id('ses', 1), status: { type: 'retry', attempt: 2, message: 'rate limited', next: 5 } })
    expect(store.state.status[id('ses', 1)]).toEqual({ type: 'retry', attempt: 2, message: 'rate limited', next: 5 })
    store.apply({ type: 'session.status', sessionID: id('ses', 1), status: { type: 'idle' } })
    expect(store.state.status[id('ses', 1)]).toEqual({ type: 'idle' })

    const error = { name: 'APIError', data: { message: 'overloaded', statusCode: 529, isRetryable: true } } as const
    store.apply({ type: 'session.error', sessionID: id('ses', 1), error })
    expect(store.state.errors[id('ses', 1)]).toEqual(error)
  })

  it('forgets the last error once the session is busy again', () => {
    const store = makeStore()
    store.apply({ type: 'session.error', sessionID: id('ses', 1), error: { name: 'UnknownError', data: { message: 'no model' } } })
    store.apply({ type: 'session.status', sessionID: id('ses', 1), status: { type: 'retry', attempt: 1, message: 'x', next: 5 } })
    expect(store.state.errors[id('ses', 1)]).toBeDefined()
    store.apply({ type: 'session.status', sessionID: id('ses', 1), status: { type: 'busy' } })
    expect(store.state.errors[id('ses', 1)]).toBeUndefined()
  })

  it('ignores errors that name no session', () => {
    const store = makeStore()
    store.apply({ type: 'session.error', error: { name: 'UnknownError', data: { message: 'somewhere' } } })
    expect(store.state.errors).toEqual({})
  })
})

describe('applyHistory', () => {
  it('loads a page in order, with its parts', () => {
    const store = makeStore()
    const first = user(1, 1)
    const second = user(1, 2)
    store.history(id('ses', 1), [
      { info: first, parts: [text(first, 1), text(first, 2)] },
      { info: second, parts: [] },
    ])
    expect(ids(store.state.messages[id('ses', 1)])).toEqual([first.id, second.id])
    expect(ids(store.state.parts[first.id])).toEqual([id('prt', 1), id('prt', 2)])
    expect(store.state.parts[second.id]).toEqual([])
  })

  it('prepends older pages and keeps everything sorted', () => {
    const store = makeStore()
    const newer = [user(1, 3), user(1, 4)]
    const older = [user(1, 1), user(1, 2)]
    store.history(id('ses', 1), newer.map((info) => ({ info, parts: [] })))
    store.history(id('ses', 1), older.map((info) => ({ info, parts: [] })))
    expect(ids(store.state.messages[id('ses', 1)])).toEqual([1, 2, 3, 4].map((n) => id('msg', n)))
  })

  it('lets rows from live events win over the (older) page read', () => {
    const store = makeStore()
    const message = user(1, 1)
    store.history(id('ses', 1), [])
    store.apply(
      { type: 'message.updated', info: { ...message, agent: 'live' } },
      { type: 'part.updated', part: text(message, 1, 'live text') },
    )
    store.history(id('ses', 1), [{ info: message, parts: [text(message, 1, 'stale'), text(message, 2, 'only in page')] }])
    expect(store.state.messages[id('ses', 1)]).toEqual([{ ...message, agent: 'live' }])
    expect(store.state.parts[message.id]?.map((part) => (part.type === 'text' ? part.text : ''))).toEqual([
      'live text',
      'only in page',
    ])
  })
})

describe('unloadHistory', () => {
  it('forgets messages and parts but keeps the session for the list', () => {
    const store = makeStore()
    const message = user(1, 1)
    store.apply({ type: 'session.created', info: session(1) })
    store.history(id('ses', 1), [{ info: message, parts: [text(message, 1)] }])
    store.unload(id('ses', 1))
    expect(store.state.messages[id('ses', 1)]).toBeUndefined()
    expect(store.state.parts[message.id]).toBeUndefined()
    expect(store.state.sessions[id('ses', 1)]).toBeDefined()
    // Events for it are ignored again until it is reopened.
    store.apply({ type: 'message.updated', info: user(1, 2) })
    expect(store.state.messages[id('ses', 1)]).toBeUndefined()
  })
})

describe('updating rows in place', () => {
  it('keeps a streamed part’s text untouched when the final update carries the same text', async () => {
    const { createRoot, createComputed } = await import('solid-js')
    const { createStore, produce } = await import('solid-js/store')
    const { applyEvent } = await import('./reducer')
    const { emptyState } = await import('./state')
    const part = { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'text' as const, text: '', time: { start: 1 } }
    await new Promise<void>((done) =>
      createRoot((dispose) => {
        const [state, setState] = createStore(emptyState())
        setState(produce((draft) => {
          draft.messages.ses_1 = []
          applyEvent(draft, { type: 'part.updated', part })
          applyEvent(draft, { type: 'part.delta', field: 'text', sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', delta: 'Hello' })
        }))
        let textReads = 0
        let endReads = 0
        createComputed(() => {
          const current = state.parts.msg_1![0] as typeof part
          void current.text
          textReads++
        })
        createComputed(() => {
          void (state.parts.msg_1![0] as typeof part & { time: { end?: number } }).time.end
          endReads++
        })
        setState(produce((draft) => applyEvent(draft, { type: 'part.updated', part: { ...part, text: 'Hello', time: { start: 1, end: 2 } } as never })))
        expect(textReads).toBe(1)
        expect(endReads).toBe(2)
        dispose()
        done()
      }),
    )
  })

  it('notifies only the session fields an update changed, down into nested objects', () => {
    createRoot((dispose) => {
      const [state, setState] = createStore(emptyState())
      const info = session(1, { revert: { messageID: 'msg_0001' } })
      setState(produce((draft) => applyEvent(draft, { type: 'session.created', info })))
      const reads = { title: 0, created: 0, updated: 0 }
      createComputed(() => {
        void state.sessions[info.id]?.title
        reads.title++
      })
      createComputed(() => {
        void state.sessions[info.id]?.time.created
        reads.created++
      })
      createComputed(() => {
        void state.sessions[info.id]?.time.updated
        reads.updated++
      })
      const { revert: _, ...unreverted } = info
      setState(produce((draft) => applyEvent(draft, { type: 'session.updated', info: { ...unreverted, time: { ...info.time, updated: 9_999 } } })))
      expect(reads).toEqual({ title: 1, created: 1, updated: 2 })
      expect(state.sessions[info.id]?.time.updated).toBe(9_999)
      expect(state.sessions[info.id] && 'revert' in state.sessions[info.id]!).toBe(false)
      dispose()
    })
  })
})
