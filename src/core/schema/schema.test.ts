import { describe, expect, it } from 'vitest'
import { parseWith } from '../errors'
import { makeBuilders } from '../../testing/fixture-builders'
import { MessageSchema, PartSchema, PART_TYPES, SessionInfoSchema } from './'

const build = makeBuilders()
const session = build.session()
const user = build.user(session.id)

describe('stored shapes', () => {
  it('covers every part type opencode has', () => {
    expect([...PART_TYPES].sort()).toEqual(
      ['agent', 'compaction', 'file', 'patch', 'reasoning', 'retry', 'snapshot', 'step-finish', 'step-start', 'subtask', 'text', 'tool'],
    )
  })

  it('accepts a well-formed session, user and assistant message', () => {
    expect(SessionInfoSchema.parse(session)).toEqual(session)
    expect(MessageSchema.parse(user)).toEqual(user)
    const reply = build.assistant(session.id, user.id, {
      error: { name: 'APIError', data: { message: 'rate limited', statusCode: 429, isRetryable: true } },
      finish: 'error',
    })
    expect(MessageSchema.parse(reply)).toEqual(reply)
  })

  it('rejects a malformed session with a message that names the field', () => {
    expect(() => parseWith(SessionInfoSchema, { ...session, id: 'msg_123' }, 'session')).toThrow(/Invalid session: id: expected a ses_ id/)
    expect(() => parseWith(SessionInfoSchema, { ...session, time: { created: 1 } }, 'session')).toThrow(/time\.updated/)
    expect(() => parseWith(SessionInfoSchema, { ...session, cost: -1 }, 'session')).toThrow(/cost/)
  })

  it('rejects an unknown message role and an unknown error name', () => {
    expect(() => parseWith(MessageSchema, { ...user, role: 'system' }, 'message')).toThrow(/Invalid message/)
    const reply = build.assistant(session.id, user.id)
    expect(() =>
      parseWith(MessageSchema, { ...reply, error: { name: 'OopsError', data: {} } }, 'message'),
    ).toThrow(/error/)
  })

  it('follows the tool state machine: each status needs its own fields', () => {
    const base = { id: 'prt_1', sessionID: session.id, messageID: user.id, type: 'tool', callID: 'call_1', tool: 'bash' }
    const ok = [
      { status: 'pending', input: {}, raw: '' },
      { status: 'running', input: { command: 'ls' }, time: { start: 1 } },
      { status: 'completed', input: {}, output: 'a', title: 'ls', metadata: {}, time: { start: 1, end: 2, compacted: 3 } },
      { status: 'error', input: {}, error: 'Tool execution aborted', metadata: { interrupted: true }, time: { start: 1, end: 2 } },
    ]
    for (const state of ok) expect(PartSchema.parse({ ...base, state })).toMatchObject({ state })
    expect(() => parseWith(PartSchema, { ...base, state: { status: 'completed', input: {}, time: { start: 1, end: 2 } } }, 'part')).toThrow(
      /state\.output/,
    )
    expect(() => parseWith(PartSchema, { ...base, state: { status: 'done', input: {} } }, 'part')).toThrow(/Invalid part/)
  })

  it('rejects a part of an unknown type or with a wrong id prefix', () => {
    const part = build.text(user, 'hello')
    expect(() => parseWith(PartSchema, { ...part, type: 'html' }, 'part')).toThrow(/Invalid part/)
    expect(() => parseWith(PartSchema, { ...part, messageID: 'ses_1' }, 'part')).toThrow(/messageID: expected a msg_ id/)
  })
})
