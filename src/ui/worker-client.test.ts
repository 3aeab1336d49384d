import { describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION } from '../core/protocol'
import { readEnvelope } from './worker-client'

describe('reading event envelopes', () => {
  const event = { type: 'session.status', sessionID: 'ses_a', status: { type: 'idle' } }
  const busy = { type: 'session.status', sessionID: 'ses_b', status: { type: 'busy' } }

  it('accepts a batch of events of our protocol, in order', () => {
    expect(readEnvelope({ protocol: PROTOCOL_VERSION, events: [event, busy] })).toEqual({ events: [event, busy] })
  })

  it('flags a tab that speaks another protocol instead of applying its events', () => {
    expect(readEnvelope({ protocol: PROTOCOL_VERSION + 1, events: [event] })).toEqual({ foreign: PROTOCOL_VERSION + 1 })
    // The envelope of protocol 8 carried one event.
    expect(readEnvelope({ protocol: 8, event })).toEqual({ foreign: 8 })
  })

  it('drops anything that is not a well-formed envelope, and events of unknown types from a batch', () => {
    for (const junk of [null, 'text', 42, {}, { protocol: 'one', events: [event] }, { protocol: PROTOCOL_VERSION }, { protocol: PROTOCOL_VERSION, event }, { protocol: PROTOCOL_VERSION, events: [{ type: 'evil' }, null, 7] }]) {
      expect(readEnvelope(junk)).toBeUndefined()
    }
    expect(readEnvelope({ protocol: PROTOCOL_VERSION, events: [{ type: 'evil' }, event, null] })).toEqual({ events: [event] })
  })
})
