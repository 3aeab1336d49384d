import { describe, expect, it } from 'vitest'
import type { McpOAuthRecord } from '../core/mcp-oauth'
import { mcpOAuthProvider, type McpOAuthStorage } from './oauth-provider'

const REDIRECT = 'https://tabcode.example/oauth-callback.html'

function memory(initial: Partial<McpOAuthRecord> = {}) {
  const box = { record: { type: 'mcp-oauth', url: 'https://mcp.example/mcp', ...initial } as McpOAuthRecord }
  const storage: McpOAuthStorage = {
    read: async () => box.record,
    update: async (change) => (box.record = change(box.record)),
    forget: async () => {
      box.record = { type: 'mcp-oauth', url: box.record.url }
    },
  }
  return { box, storage }
}

const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer', refresh_token: `refresh-${access}` })

describe('the OAuth provider’s storage', () => {
  it('registers as a public client redirecting to the callback page', () => {
    const provider = mcpOAuthProvider({ storage: memory().storage, redirectUrl: REDIRECT })
    expect(provider.redirectUrl).toBe(REDIRECT)
    expect(provider.clientMetadata).toMatchObject({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] })
  })

  it('keeps a sign-in’s client, verifier and state, and spends the verifier and state once tokens come', async () => {
    const { box, storage } = memory()
    const opened: string[] = []
    const provider = mcpOAuthProvider({ storage, redirectUrl: REDIRECT, onAuthorize: (url) => opened.push(url.href), randomState: () => 'state-1' })
    await provider.saveClientInformation!({ client_id: 'client-1' })
    expect(await provider.isClientInformationDynamicallyRegistered!()).toBe(true)
    const state = await provider.state!()
    await provider.saveState!(state)
    await provider.saveCodeVerifier('verifier-1')
    await provider.redirectToAuthorization(new URL('https://as.example/authorize?state=state-1'))
    expect(opened).toEqual(['https://as.example/authorize?state=state-1'])
    expect(await provider.storedState!()).toBe('state-1')
    expect(await provider.codeVerifier()).toBe('verifier-1')

    await provider.saveTokens(tokens('a1'))
    expect(box.record).toEqual({ type: 'mcp-oauth', url: 'https://mcp.example/mcp', clientInformation: { client_id: 'client-1' }, dynamicallyRegistered: true, tokens: tokens('a1') })
    await expect(provider.codeVerifier()).rejects.toThrow('There is no sign-in waiting to finish')
  })

  it('leaves a pending sign-in alone when a background connection would start another', async () => {
    const { box, storage } = memory({ codeVerifier: 'pending', state: 'pending-state' })
    const provider = mcpOAuthProvider({ storage, redirectUrl: REDIRECT })
    await provider.saveCodeVerifier('other')
    await provider.saveState!('other-state')
    await provider.redirectToAuthorization(new URL('https://as.example/authorize'))
    expect(box.record.codeVerifier).toBe('pending')
    expect(box.record.state).toBe('pending-state')
  })

  it('invalidates what the library names: tokens of the failed generation only, the client, or everything', async () => {
    const { box, storage } = memory({ clientInformation: { client_id: 'client-1' }, dynamicallyRegistered: true, tokens: tokens('a2') })
    const provider = mcpOAuthProvider({ storage, redirectUrl: REDIRECT })
    // A refresh elsewhere saved a2 after a1 failed: a2 stays.
    await provider.invalidateCredentials!('tokens', { tokens: tokens('a1') })
    expect(box.record.tokens?.access_token).toBe('a2')
    await provider.invalidateCredentials!('tokens', { tokens: tokens('a2') })
    expect(box.record.tokens).toBeUndefined()
    await provider.invalidateCredentials!('client')
    expect(box.record.clientInformation).toBeUndefined()
    expect(box.record.dynamicallyRegistered).toBeUndefined()
    box.record = { ...box.record, tokens: tokens('a3'), codeVerifier: 'v' }
    await provider.invalidateCredentials!('verifier')
    expect(box.record.codeVerifier).toBeUndefined()
    await provider.invalidateCredentials!('all')
    expect(box.record).toEqual({ type: 'mcp-oauth', url: 'https://mcp.example/mcp' })
  })
})
