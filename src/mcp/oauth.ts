import type { FetchFunction } from '@ai-sdk/provider-utils'
import type { McpServerConfig } from '../core/mcp'
import { McpSignInError, McpSignInStartSchema, type McpSignInStart } from '../core/mcp-oauth'
import { describeMcpStatus } from '../core/mcp-status'
import { describeRefusedMcpUrl, isAllowedMcpUrl } from '../core/mcp-url'
import { redactSecrets } from '../core/redact'
import { secureMcpFetch } from './client'
import { McpConnectError, type McpConnector } from './hub'
import { mcpOAuthProvider, type McpOAuthStorage } from './oauth-provider'

export interface McpSignInOptions {
  connect: McpConnector
  storage: (config: McpServerConfig) => McpOAuthStorage
  redirectUrl: string
  fetch?: FetchFunction
}

/**
 * Sign-in to a server that offers OAuth, in two steps because only the page can open the authorization window: `start`
 * connects with a provider that catches the authorization URL (the transport's 401 runs the library's discovery and
 * registration), `finish` hands the library the code the callback page got.
 */
export function mcpSignIn(options: McpSignInOptions) {
  return {
    async start(config: McpServerConfig): Promise<McpSignInStart> {
      let authorization: URL | undefined
      const authProvider = mcpOAuthProvider({ storage: options.storage(config), redirectUrl: options.redirectUrl, onAuthorize: (url) => (authorization = url) })
      try {
        const connection = await options.connect(config, { authProvider })
        await connection.close().catch(() => {})
        // Stored tokens still worked (or were refreshed): nothing to sign in to.
        return { type: 'connected' }
      } catch (error) {
        if (authorization) {
          // The page opens it in a window of this origin: only an https page (or one on this machine) will do, never
          // plain http elsewhere (the code would travel in clear) nor another scheme (a `file:` or `javascript:` address would run or read something here).
          if (!isAllowedMcpUrl(authorization)) throw new McpSignInError(config.name, describeRefusedMcpUrl('The sign-in page the server points to,', authorization.href))
          return McpSignInStartSchema.parse({ type: 'authorize', url: authorization.href, state: authorization.searchParams.get('state') ?? '' })
        }
        throw new McpSignInError(config.name, startFailure(config, error))
      }
    },
    async finish(config: McpServerConfig, callback: { code: string; state: string; iss?: string }): Promise<void> {
      const { auth } = await import('@ai-sdk/mcp')
      const provider = mcpOAuthProvider({ storage: options.storage(config), redirectUrl: options.redirectUrl })
      let result: Awaited<ReturnType<typeof auth>>
      try {
        result = await auth(provider, {
          serverUrl: config.url,
          authorizationCode: callback.code,
          callbackState: callback.state,
          ...(callback.iss ? { callbackIssuer: callback.iss } : {}),
          fetchFn: secureMcpFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init))),
        })
      } catch (error) {
        throw new McpSignInError(config.name, reason(config, error))
      }
      if (result !== 'AUTHORIZED') throw new McpSignInError(config.name, 'the authorization server asked to sign in again')
    },
  }
}

/**
 * Why no authorization URL came: the server is not reachable as it should be (its status says so), or it asked for
 * authorization but the library's discovery or registration failed (its error says where).
 */
function startFailure(config: McpServerConfig, error: unknown): string {
  if (!(error instanceof McpConnectError)) return reason(config, error)
  const cause = error.cause
  if (error.status.state === 'auth' && error.status.oauth && cause instanceof Error) return reason(config, cause)
  if (error.status.state === 'auth' && !error.status.oauth) return 'the server does not offer OAuth: add its token as a header instead.'
  return describeMcpStatus(error.status)
}

/** A failure's message without any secret the server or the library may have echoed. */
function reason(config: McpServerConfig, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return redactSecrets(message, config.headers.map((header) => header.value))
}
