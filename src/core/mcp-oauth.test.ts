import { describe, expect, it } from 'vitest'
import { isMcpSignedIn, mcpOAuthRecordFor, mcpOAuthSecrets, readMcpOAuthRecords } from './mcp-oauth'

const signedIn = {
  type: 'mcp-oauth',
  url: 'https://mcp.example/mcp',
  clientInformation: { client_id: 'client-1', client_secret: 'client-secret-1', issuer: 'https://mcp.example' },
  tokens: { access_token: 'access-1', token_type: 'Bearer', refresh_token: 'refresh-1', authorization_server: 'https://mcp.example/' },
  codeVerifier: 'verifier-1',
}

describe('stored OAuth records', () => {
  it('reads tolerantly, keeping the library’s extra fields and dropping rows it cannot read', () => {
    const records = readMcpOAuthRecords({ docs: signedIn, broken: { type: 'mcp-oauth' }, other: 3 })
    expect(Object.keys(records)).toEqual(['docs'])
    expect(records.docs?.tokens).toEqual(signedIn.tokens)
    expect(readMcpOAuthRecords([signedIn])).toEqual({})
    expect(readMcpOAuthRecords(undefined)).toEqual({})
  })

  it('counts a record made for another URL as none', () => {
    const records = readMcpOAuthRecords({ docs: signedIn })
    expect(isMcpSignedIn(mcpOAuthRecordFor(records, 'docs', 'https://mcp.example/mcp'))).toBe(true)
    expect(mcpOAuthRecordFor(records, 'docs', 'https://elsewhere.example/mcp')).toEqual({ type: 'mcp-oauth', url: 'https://elsewhere.example/mcp' })
    expect(isMcpSignedIn(mcpOAuthRecordFor(records, 'other', 'https://mcp.example/mcp'))).toBe(false)
  })

  it('lists every secret for the logger', () => {
    expect(mcpOAuthSecrets(readMcpOAuthRecords({ docs: signedIn })).sort()).toEqual(['access-1', 'client-secret-1', 'refresh-1', 'verifier-1'])
  })
})
