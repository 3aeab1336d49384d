import { describe, expect, it } from 'vitest'
import { hashForSession, sessionFromHash } from './session-location'

describe('session location', () => {
  it('round-trips a session id through the fragment', () => {
    expect(hashForSession('ses_abc123')).toBe('#/session/ses_abc123')
    expect(sessionFromHash('#/session/ses_abc123')).toBe('ses_abc123')
    expect(hashForSession(undefined)).toBe('')
  })

  it('ignores fragments that are not a session', () => {
    expect(sessionFromHash('')).toBeUndefined()
    expect(sessionFromHash('#/settings')).toBeUndefined()
    expect(sessionFromHash('#/session/msg_123')).toBeUndefined()
    expect(sessionFromHash('#/session/ses_<script>')).toBeUndefined()
  })
})
