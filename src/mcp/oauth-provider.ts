import type { OAuthClientProvider } from '@ai-sdk/mcp'
import type { McpOAuthRecord } from '../core/mcp-oauth'

/** Where a server's OAuth record lives (the store's `mcp.oauth` setting; a map in tests). */
export interface McpOAuthStorage {
  read(): Promise<McpOAuthRecord>
  update(change: (record: McpOAuthRecord) => McpOAuthRecord): Promise<unknown>
  forget(): Promise<void>
}

export interface McpOAuthProviderOptions {
  storage: McpOAuthStorage
  /** This origin's callback page (core/mcp-oauth-callback.ts). */
  redirectUrl: string
  /**
   * Called with the authorization URL when the user must sign in. Absent for the connections a status check or a
   * turn makes: they only use and refresh stored tokens, and leave a pending sign-in's verifier and state alone.
   */
  onAuthorize?: (url: URL) => void
  randomState?: () => string
}

/**
 * The `OAuthClientProvider` `@ai-sdk/mcp` runs the MCP authorization flow with (discovery, registration, PKCE, token
 * exchange and refresh are all the library's): it keeps what the library hands it in the server's record and, in the
 * worker that cannot open windows, passes the authorization URL on instead of navigating.
 */
export function mcpOAuthProvider(options: McpOAuthProviderOptions): OAuthClientProvider {
  const { storage } = options
  const interactive = options.onAuthorize !== undefined
  const randomState = options.randomState ?? (() => crypto.randomUUID())
  type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>
  type Client = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>
  return {
    get redirectUrl() {
      return options.redirectUrl
    },
    get clientMetadata() {
      return {
        client_name: 'tabcode',
        redirect_uris: [options.redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // A browser app keeps no secret: a public client, PKCE only.
        token_endpoint_auth_method: 'none',
      }
    },
    async clientInformation() {
      return (await storage.read()).clientInformation as Client
    },
    async saveClientInformation(clientInformation) {
      await storage.update((record) => ({ ...record, clientInformation: { ...clientInformation }, dynamicallyRegistered: true }))
    },
    async isClientInformationDynamicallyRegistered() {
      return (await storage.read()).dynamicallyRegistered === true
    },
    async tokens() {
      return (await storage.read()).tokens as Tokens
    },
    async saveTokens(tokens) {
      // The exchange is done: the verifier and state of that flow are spent.
      await storage.update(({ codeVerifier: _verifier, state: _state, ...record }) => ({ ...record, tokens: { ...tokens } }))
    },
    async authorizationServerInformation() {
      return (await storage.read()).authorizationServer
    },
    async saveAuthorizationServerInformation(information) {
      await storage.update((record) => ({ ...record, authorizationServer: { ...information } }))
    },
    async saveCodeVerifier(codeVerifier) {
      if (interactive) await storage.update((record) => ({ ...record, codeVerifier }))
    },
    async codeVerifier() {
      const verifier = (await storage.read()).codeVerifier
      if (!verifier) throw new Error('There is no sign-in waiting to finish: start it again.')
      return verifier
    },
    state: () => randomState(),
    async saveState(state) {
      if (interactive) await storage.update((record) => ({ ...record, state }))
    },
    async storedState() {
      return (await storage.read()).state
    },
    async redirectToAuthorization(url) {
      options.onAuthorize?.(url)
    },
    async invalidateCredentials(scope, context) {
      if (scope === 'all') return storage.forget()
      await storage.update((record) => {
        if (scope === 'client') {
          const { clientInformation: _client, dynamicallyRegistered: _registered, ...rest } = record
          return rest
        }
        if (scope === 'verifier') {
          const { codeVerifier: _verifier, ...rest } = record
          return rest
        }
        // Only the generation the library saw fail: a refresh another connection saved meanwhile stays.
        if (context && record.tokens && record.tokens.access_token !== context.tokens.access_token) return record
        const { tokens: _tokens, ...rest } = record
        return rest
      })
    },
  }
}
