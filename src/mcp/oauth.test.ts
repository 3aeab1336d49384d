import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { McpServerConfig } from '../core/mcp'
import type { McpOAuthRecord } from '../core/mcp-oauth'
// The e2e suite's MCP server, whose /oauth/mcp sits behind its own small authorization server.
import { startMcpServer, type McpTestServer } from '../../test-servers/mcp-server.mjs'
import { mcpConnector } from './client'
import { McpConnectError } from './hub'
import { mcpSignIn } from './oauth'
import { mcpOAuthProvider, type McpOAuthStorage } from './oauth-provider'

const ORIGIN = 'https://tabcode.example'
const REDIRECT = `${ORIGIN}/oauth-callback.html`

let server: McpTestServer
beforeAll(async () => {
  server = await startMcpServer({ port: 0 })
})
afterAll(async () => {
  await server.close()
})

let record: McpOAuthRecord
beforeEach(() => {
  server.oauth.deny = false
  server.oauth.authorizationEndpoint = undefined
  server.oauth.tokenEndpoint = undefined
  record = { type: 'mcp-oauth', url: '' }
})

const storage: McpOAuthStorage = {
  read: async () => record,
  update: async (change) => (record = change(record)),
  forget: async () => {
    record = { type: 'mcp-oauth', url: record.url }
  },
}

const config = (): McpServerConfig => ({ type: 'remote', name: 'guarded', url: `${server.url}/oauth/mcp`, headers: [], enabled: true })

function setUp() {
  const connect = mcpConnector({
    origin: ORIGIN,
    opaqueProbe: async () => 'conclusive',
    oauth: async () => (record.tokens ? mcpOAuthProvider({ storage, redirectUrl: REDIRECT }) : undefined),
  })
  return { connect, signIn: mcpSignIn({ connect, storage: () => storage, redirectUrl: REDIRECT }) }
}

/** What the popup does: follows the authorization URL and reads the redirect back to the callback page. */
async function authorize(url: string): Promise<URLSearchParams> {
  const response = await fetch(url, { redirect: 'manual' })
  const location = new URL(response.headers.get('location') ?? '')
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT)
  return location.searchParams
}

describe('OAuth sign-in with @ai-sdk/mcp', () => {
  it('says a server that was never signed in offers OAuth, without registering or redirecting', async () => {
    const { connect } = setUp()
    const error = await connect(config()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(McpConnectError)
    expect((error as McpConnectError).status).toEqual({ state: 'auth', status: 401, oauth: true })
    expect(server.oauth.registered).toBe(0)
  })

  it('registers, answers the authorization URL, exchanges the code with the PKCE verifier, then connects with the token', async () => {
    const { connect, signIn } = setUp()
    const start = await signIn.start(config())
    if (start.type !== 'authorize') throw new Error('expected an authorization URL')
    expect(new URL(start.url).searchParams.get('code_challenge_method')).toBe('S256')
    expect(start.state).toBeTruthy()
    expect(record.codeVerifier).toBeTruthy()
    expect(record.clientInformation?.client_id).toMatch(/^client-/)

    const answer = await authorize(start.url)
    expect(answer.get('state')).toBe(start.state)
    await signIn.finish(config(), { code: answer.get('code')!, state: answer.get('state')! })
    expect(record.tokens?.access_token).toBe(server.oauth.issued.at(-1))
    // The flow's verifier and state are spent.
    expect(record.codeVerifier).toBeUndefined()
    expect(record.state).toBeUndefined()

    const connection = await connect(config())
    expect(connection.tools.map((tool) => tool.name)).toEqual(['lookup_word'])
    await connection.call('lookup_word', { word: 'gale' }, new AbortController().signal)
    expect(server.calls.at(-1)).toEqual({ tool: 'lookup_word', input: { word: 'gale' }, bearer: record.tokens?.access_token })
    await connection.close()
  })

  it('refreshes a token the server no longer takes through the provider', async () => {
    const { connect, signIn } = setUp()
    const start = await signIn.start(config())
    if (start.type !== 'authorize') throw new Error('expected an authorization URL')
    const answer = await authorize(start.url)
    await signIn.finish(config(), { code: answer.get('code')!, state: start.state })
    const first = record.tokens!.access_token
    // The server forgets the access token (as when it expires): the refresh token gets a new one.
    server.oauth.issued.splice(server.oauth.issued.indexOf(first), 1)
    const connection = await connect(config())
    expect(record.tokens?.access_token).not.toBe(first)
    expect(server.oauth.issued).toContain(record.tokens?.access_token)
    await connection.close()
  })

  it('refuses a callback whose state is not the pending sign-in’s, and keeps no tokens', async () => {
    const { signIn } = setUp()
    const start = await signIn.start(config())
    if (start.type !== 'authorize') throw new Error('expected an authorization URL')
    const answer = await authorize(start.url)
    await expect(signIn.finish(config(), { code: answer.get('code')!, state: 'forged' })).rejects.toMatchObject({ name: 'McpSignInError' })
    expect(record.tokens).toBeUndefined()
  })

  it('a denied authorization comes back as error=access_denied with the state', async () => {
    const { signIn } = setUp()
    server.oauth.deny = true
    const start = await signIn.start(config())
    if (start.type !== 'authorize') throw new Error('expected an authorization URL')
    const answer = await authorize(start.url)
    expect(answer.get('error')).toBe('access_denied')
    expect(answer.get('state')).toBe(start.state)
    expect(answer.get('code')).toBeNull()
  })

  it('says why a sign-in cannot start when the server’s OAuth metadata is missing', async () => {
    // A server that asks for a token but serves no metadata, no registration and no authorization endpoint.
    const broken = (async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.endsWith('/mcp')) return new Response('{}', { status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="https://broken.example/.well-known/oauth-protected-resource"' } })
      return new Response('not here', { status: 404 })
    }) as typeof fetch
    const connect = mcpConnector({ origin: ORIGIN, opaqueProbe: async () => 'conclusive', fetch: broken })
    const signIn = mcpSignIn({ connect, storage: () => storage, redirectUrl: REDIRECT })
    const error = await signIn.start({ ...config(), url: 'https://broken.example/mcp' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'McpSignInError' })
    expect((error as Error).message).toMatch(/^Sign-in to guarded failed: /)
    expect((error as Error).message).not.toContain('offers OAuth: sign in')
    expect(record.tokens).toBeUndefined()
  })

  it('never opens a sign-in page that is not https (the metadata may name any scheme)', async () => {
    const { signIn } = setUp()
    for (const endpoint of ['http://auth.attacker.example/authorize', 'file:///etc/passwd']) {
      server.oauth.authorizationEndpoint = endpoint
      const error = await signIn.start(config()).catch((caught: unknown) => caught)
      expect(error, endpoint).toMatchObject({ name: 'McpSignInError' })
      expect((error as Error).message).toContain('is not https')
    }
  })

  it('never sends the code to a token endpoint that is not https', async () => {
    const { signIn } = setUp()
    // The library checks that metadata names no private address, but takes plain http to any other host.
    server.oauth.tokenEndpoint = 'http://token.attacker.example/token'
    const start = await signIn.start(config())
    if (start.type !== 'authorize') throw new Error('expected an authorization URL')
    const answer = await authorize(start.url)
    const error = await signIn.finish(config(), { code: answer.get('code')!, state: start.state }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'McpSignInError' })
    expect((error as Error).message).toContain('http://token.attacker.example/token is not https')
    expect(record.tokens).toBeUndefined()
  })
})
