import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/event'
import type { MessageError, PermissionAsk } from '../../core/schema'
import { makeBuilders } from '../../testing/fixture-builders'
import { EMPTY_TURN_MEMORY, watchTurns, type Happening } from './turn-watch'

const build = makeBuilders()
const session = build.session({ title: 'Fix the login' })
const prompt = build.user(session.id)

const busy: SessionEvent = { type: 'session.status', sessionID: session.id, status: { type: 'busy' } }
const idle: SessionEvent = { type: 'session.status', sessionID: session.id, status: { type: 'idle' } }
const reply = (error?: MessageError): SessionEvent => ({ type: 'message.updated', info: build.assistant(session.id, prompt.id, error ? { error } : {}) })
const STOPPED: MessageError = { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }
const RATE_LIMITED: MessageError = { name: 'APIError', data: { message: 'Rate limited', statusCode: 429, isRetryable: false } }

/** The happenings a run of events gives, in order. */
function happenings(events: SessionEvent[]): Happening[] {
  let memory = EMPTY_TURN_MEMORY
  const found: Happening[] = []
  for (const event of events) {
    const next = watchTurns(memory, event)
    memory = next.memory
    if (next.happening) found.push(next.happening)
  }
  return found
}

describe('watchTurns', () => {
  it('a turn that ran and went idle finished', () => {
    expect(happenings([busy, reply(), idle])).toEqual([{ type: 'turn-ended', sessionID: session.id, outcome: 'finished' }])
  })

  it('a turn the user stopped was stopped, not failed', () => {
    expect(happenings([busy, reply(STOPPED), idle])).toEqual([{ type: 'turn-ended', sessionID: session.id, outcome: 'stopped' }])
  })

  it('a turn that ended in an error failed, with that error; the error event and the reply give one happening', () => {
    const error: SessionEvent = { type: 'session.error', sessionID: session.id, error: RATE_LIMITED }
    expect(happenings([busy, reply(RATE_LIMITED), error, idle])).toEqual([{ type: 'turn-ended', sessionID: session.id, outcome: 'failed', error: RATE_LIMITED }])
  })

  it('a runner that crashed fails the turn with the error it reported', () => {
    const crash: MessageError = { name: 'UnknownError', data: { message: 'The disk is full' } }
    expect(happenings([busy, { type: 'session.error', sessionID: session.id, error: crash }, idle])).toEqual([
      { type: 'turn-ended', sessionID: session.id, outcome: 'failed', error: crash },
    ])
  })

  it('an error of an earlier step is forgotten once a later reply goes on without one', () => {
    expect(happenings([busy, reply(RATE_LIMITED), reply(), idle])).toEqual([{ type: 'turn-ended', sessionID: session.id, outcome: 'finished' }])
  })

  it('idle for a session never seen running (a repair on open, a Stop of nothing) is no ending', () => {
    expect(happenings([reply(), idle])).toEqual([])
  })

  it('retries and repeated busy announce one turn, and the next turn starts clean', () => {
    const retry: SessionEvent = { type: 'session.status', sessionID: session.id, status: { type: 'retry', attempt: 1, message: 'busy', next: 1 } }
    expect(happenings([busy, retry, busy, reply(STOPPED), idle, busy, reply(), idle])).toEqual([
      { type: 'turn-ended', sessionID: session.id, outcome: 'stopped' },
      { type: 'turn-ended', sessionID: session.id, outcome: 'finished' },
    ])
  })

  it('a question or permission ask waits as soon as it is asked', () => {
    const ask: PermissionAsk = {
      id: 'per_1',
      sessionID: session.id,
      projectID: 'prj_test',
      messageID: prompt.id,
      permission: 'bash',
      patterns: ['rm -rf build'],
      always: ['rm *'],
      metadata: { command: 'rm -rf build' },
      time: { created: 1 },
    }
    expect(happenings([{ type: 'permission.asked', ask }])).toEqual([{ type: 'waiting', sessionID: session.id, ask }])
  })
})
