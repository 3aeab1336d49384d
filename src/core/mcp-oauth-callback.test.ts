import { describe, expect, it } from 'vitest'
import { describeMcpSignInFailure, mcpOAuthRedirectUrl, readMcpOAuthCallback } from './mcp-oauth-callback'

const expected = { state: 'state-1', origin: 'https://tabcode.example' }

describe('the sign-in callback message', () => {
  it('gives the code (and issuer) of the sign-in waiting for its state', () => {
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-1', code: 'abc' }, expected)).toEqual({ type: 'code', code: 'abc' })
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-1', code: 'abc', iss: 'https://as.example' }, expected, expected.origin)).toEqual({
      type: 'code',
      code: 'abc',
      iss: 'https://as.example',
    })
  })

  it('ignores another sign-in’s state, another origin’s message and anything not a callback', () => {
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-2', code: 'abc' }, expected)).toBeUndefined()
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-1', code: 'abc' }, expected, 'https://evil.example')).toBeUndefined()
    expect(readMcpOAuthCallback({ type: 'other', state: 'state-1', code: 'abc' }, expected)).toBeUndefined()
    expect(readMcpOAuthCallback('state-1', expected)).toBeUndefined()
    expect(readMcpOAuthCallback(null, expected)).toBeUndefined()
    // A flow that somehow has no state never matches a message without one.
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: '', code: 'abc' }, { ...expected, state: '' })).toBeUndefined()
  })

  it('turns an error answer, or one without a code, into a refusal', () => {
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-1', error: 'access_denied', errorDescription: 'No.' }, expected)).toEqual({
      type: 'refused',
      reason: 'access_denied: No.',
    })
    expect(readMcpOAuthCallback({ type: 'mcp-oauth-callback', state: 'state-1' }, expected)).toEqual({ type: 'refused', reason: 'the server sent no authorization code' })
  })

  it('says a denial plainly, and other failures with their reason', () => {
    expect(describeMcpSignInFailure('docs', 'access_denied: No.')).toBe('Sign-in to docs was refused: the authorization server denied access. Nothing changed.')
    expect(describeMcpSignInFailure('docs', 'server_error')).toBe('Sign-in to docs did not finish (server_error). Nothing changed.')
  })

  it('redirects to the callback page on this origin', () => {
    expect(mcpOAuthRedirectUrl('https://tabcode.example')).toBe('https://tabcode.example/oauth-callback.html')
  })
})
