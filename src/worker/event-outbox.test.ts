import { describe, expect, it, vi } from 'vitest'
import type { SessionEvent } from '../core/event'
import { makeEventOutbox } from './event-outbox'

const delta = (partID: string, text: string): SessionEvent => ({ type: 'part.delta', field: 'text', sessionID: 'ses_a', messageID: 'msg_a', partID, delta: text })

describe('event outbox', () => {
  it('merges the deltas of one window into one message per part, in order', () => {
    vi.useFakeTimers()
    try {
      const posted: SessionEvent[] = []
      const outbox = makeEventOutbox((event) => posted.push(event))
      for (const piece of ['a', 'b', 'c']) outbox.emit(delta('prt_1', piece))
      outbox.emit(delta('prt_2', 'x'))
      outbox.emit(delta('prt_1', 'd'))
      expect(posted).toEqual([])
      vi.advanceTimersByTime(16)
      expect(posted).toEqual([delta('prt_1', 'abc'), delta('prt_2', 'x'), delta('prt_1', 'd')])
    } finally {
      vi.useRealTimers()
    }
  })

  it('sends queued deltas before any other event so nothing overtakes them', () => {
    const posted: SessionEvent[] = []
    const outbox = makeEventOutbox((event) => posted.push(event))
    outbox.emit(delta('prt_1', 'Hel'))
    outbox.emit(delta('prt_1', 'lo'))
    outbox.emit({ type: 'session.status', sessionID: 'ses_a', status: { type: 'idle' } })
    expect(posted).toEqual([delta('prt_1', 'Hello'), { type: 'session.status', sessionID: 'ses_a', status: { type: 'idle' } }])
  })
})
