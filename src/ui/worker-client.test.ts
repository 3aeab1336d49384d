import { describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION } from '../core/protocol'
import { readEnvelope } from './worker-client'

describe('reading event envelopes', () => {
  const event = { type: 'session.status', sessionID: 'ses_a', status: { type: 'idle' } }

  it('accepts an event of our protocol', () => {
    expect(readEnvelope({ protocol: PROTOCOL_VERSION, event })).toEqual({ event })
  })

  it('flags a tab that speaks another protocol instead of applying its events', () => {
    expect(readEnvelope({ protocol: PROTOCOL_VERSION + 1, event })).toEqual({ foreign: PROTOCOL_VERSION + 1 })
  })

  it('drops anything that is not a well-formed envelope', () => {
    for (const junk of [null, 'text', 42, {}, { protocol: 'one', event }, { protocol: PROTOCOL_VERSION }, { protocol: PROTOCOL_VERSION, event: { type: 'evil' } }]) {
      expect(readEnvelope(junk)).toBeUndefined()
    }
  })
})
