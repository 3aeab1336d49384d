import { describe, expect, it } from 'vitest'
import { hashForSession, sessionFromHash, shareLinkFromHash } from './session-location'

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
    expect(sessionFromHash('#/share/v1.abc')).toBeUndefined()
  })

  it('recognises a share link in the fragment and nothing else', () => {
    expect(shareLinkFromHash('#/share/v1.AAAA')).toBe('#/share/v1.AAAA')
    expect(shareLinkFromHash('#/share/v1e.AAAA')).toBe('#/share/v1e.AAAA')
    expect(shareLinkFromHash('#/share/')).toBeUndefined()
    expect(shareLinkFromHash('#/session/ses_abc')).toBeUndefined()
    expect(shareLinkFromHash('')).toBeUndefined()
  })
})
