import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../core/event'
import { DELTA_INTERVAL_MS, EVENT_WINDOW_MS, FAST_INTERVAL_MS, makeEventOutbox } from './event-outbox'

const delta = (partID: string, text: string): SessionEvent => ({ type: 'part.delta', field: 'text', sessionID: 'ses_a', messageID: 'msg_a', partID, delta: text })
const idle: SessionEvent = { type: 'session.status', sessionID: 'ses_a', status: { type: 'idle' } }
const removed = (partID: string): SessionEvent => ({ type: 'part.removed', sessionID: 'ses_a', messageID: 'msg_a', partID })

describe('event outbox', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())
  // Fake timers move Date.now; the outbox's clock is injected so the test owns it. `posted` flattens the messages.
  const outboxInto = (posted: SessionEvent[], messages: SessionEvent[][] = []) =>
    makeEventOutbox(
      (events) => {
        messages.push(events)
        posted.push(...events)
      },
      {},
      () => Date.now(),
    )

  it('merges the deltas of one window into one message per part, in order', () => {
    const posted: SessionEvent[] = []
    const outbox = outboxInto(posted)
    for (const piece of ['a', 'b', 'c']) outbox.emit(delta('prt_1', piece))
    outbox.emit(delta('prt_2', 'x'))
    outbox.emit(delta('prt_1', 'd'))
    expect(posted).toEqual([])
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(posted).toEqual([delta('prt_1', 'abc'), delta('prt_2', 'x'), delta('prt_1', 'd')])
  })

  it('sends queued deltas with the next other event, before it, so nothing overtakes them', () => {
    const posted: SessionEvent[] = []
    const messages: SessionEvent[][] = []
    const outbox = outboxInto(posted, messages)
    outbox.emit(delta('prt_1', 'Hel'))
    outbox.emit(delta('prt_1', 'lo'))
    outbox.emit(removed('prt_2'))
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(messages).toEqual([[delta('prt_1', 'Hello'), removed('prt_2')]])
  })

  it('posts a session status and a file change at once, with what was queued before them', () => {
    const messages: SessionEvent[][] = []
    const outbox = outboxInto([], messages)
    outbox.emit(delta('prt_1', 'Done.'))
    outbox.emit(idle)
    expect(messages).toEqual([[delta('prt_1', 'Done.'), idle]])
    // A file tree lists a folder again on each change: a move's two changes must not reach it a window apart.
    const moved: SessionEvent = { type: 'workspace.changed', projectID: 'prj_a', change: { type: 'remove', path: '/workspace/a.txt' } }
    outbox.emit(removed('prt_2'))
    outbox.emit(moved)
    expect(messages).toEqual([[delta('prt_1', 'Done.'), idle], [removed('prt_2'), moved]])
  })

  it('posts the events of one burst as one message, within a window of the first', () => {
    const messages: SessionEvent[][] = []
    const outbox = outboxInto([], messages)
    const step = ['prt_call', 'prt_finish', 'prt_start'].map(removed)
    outbox.emit(step[0]!)
    vi.advanceTimersByTime(EVENT_WINDOW_MS / 2)
    outbox.emit(step[1]!)
    outbox.emit(step[2]!)
    expect(messages).toEqual([])
    // The window runs from the first event: a steady trickle cannot hold a batch back.
    vi.advanceTimersByTime(EVENT_WINDOW_MS / 2)
    expect(messages).toEqual([step])
    outbox.emit(removed('prt_next'))
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(messages).toEqual([step, [removed('prt_next')]])
  })

  /** `perMs` four-character deltas every millisecond for `ms`, a status now and then; what was posted and sent. */
  function stream(perMs: number, ms: number) {
    const posted: SessionEvent[] = []
    const outbox = outboxInto(posted)
    let sent = ''
    for (let t = 0; t < ms; t++) {
      for (let i = 0; i < perMs; i++) {
        const piece = String(t * perMs + i).padStart(4, '0')
        sent += piece
        outbox.emit(delta('prt_1', piece))
      }
      vi.advanceTimersByTime(1)
    }
    outbox.emit(idle)
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    const deltas = posted.filter((event) => event.type === 'part.delta')
    return { posted, deltas, sent }
  }

  it('posts a stream at a reading pace about ten times a second, with every character, in order', () => {
    // One four-character delta a millisecond: 4,000 characters a second, a fast model that is still read.
    const { posted, deltas, sent } = stream(1, 1_000)
    expect(deltas.length).toBeGreaterThanOrEqual(1_000 / DELTA_INTERVAL_MS - 1)
    expect(deltas.length).toBeLessThanOrEqual(1_000 / DELTA_INTERVAL_MS + 2)
    expect(posted.at(-1)).toEqual(idle)
    expect(deltas.map((event) => (event.type === 'part.delta' ? event.delta : '')).join('')).toBe(sent)
  })

  it('posts a stream faster than anyone reads about four times a second, with every character, in order', () => {
    // 3,000 four-character deltas a second: 12,000 characters, twenty lines a tenth of a second.
    const { posted, deltas, sent } = stream(3, 1_000)
    expect(deltas.length).toBeLessThanOrEqual(2 + 1_000 / FAST_INTERVAL_MS + 1)
    expect(posted.at(-1)).toEqual(idle)
    expect(deltas.map((event) => (event.type === 'part.delta' ? event.delta : '')).join('')).toBe(sent)
  })

  it('does not hold back the first delta after a pause, nor a reply ending mid-interval', () => {
    const posted: SessionEvent[] = []
    const outbox = outboxInto(posted)
    outbox.emit(delta('prt_1', 'Hi'))
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(posted).toEqual([delta('prt_1', 'Hi')])
    // Within the interval, the next delta waits out the rest of it…
    outbox.emit(delta('prt_1', ' there'))
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(posted).toHaveLength(1)
    // …unless the part ends first, which takes it along within a window.
    const done: SessionEvent = { ...idle }
    outbox.emit(done)
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(posted).toEqual([delta('prt_1', 'Hi'), delta('prt_1', ' there'), done])
    // After a quiet spell, a delta goes out within a frame again.
    vi.advanceTimersByTime(DELTA_INTERVAL_MS)
    outbox.emit(delta('prt_1', '!'))
    vi.advanceTimersByTime(EVENT_WINDOW_MS)
    expect(posted.at(-1)).toEqual(delta('prt_1', '!'))
  })
})
