/**
 * How the sign-in popup's callback page (public/oauth-callback.html) hands the authorization server's answer back to
 * the page that started it. Plain code without zod: the page's bundle reads it (src/ui/app/bundle-boundary.test.ts), and
 * public/oauth-callback.js writes the same shape.
 */

/** The BroadcastChannel both pages use; the callback also posts to its opener when one is left. */
export const MCP_OAUTH_CHANNEL = 'tabcode-mcp-oauth'

/** The path the authorization server redirects to, on this origin. */
export const MCP_OAUTH_CALLBACK_PATH = '/oauth-callback.html'

export function mcpOAuthRedirectUrl(origin: string): string {
  return new URL(MCP_OAUTH_CALLBACK_PATH, origin).href
}

/** What the callback page sends: the query of the redirect, as the authorization server wrote it. */
export interface McpOAuthCallbackMessage {
  type: 'mcp-oauth-callback'
  state: string
  code?: string
  iss?: string
  error?: string
  errorDescription?: string
}

export type McpOAuthCallback =
  | { type: 'code'; code: string; iss?: string }
  | { type: 'refused'; reason: string }

/**
 * The answer to the sign-in waiting for `state`, or undefined when the message is not one (another tab's sign-in, a
 * page of another origin, a stray message). `origin` is the sender's, when the message came by postMessage.
 */
export function readMcpOAuthCallback(data: unknown, expected: { state: string; origin: string }, sender?: string): McpOAuthCallback | undefined {
  if (sender !== undefined && sender !== expected.origin) return undefined
  if (typeof data !== 'object' || data === null) return undefined
  const message = data as Partial<Record<keyof McpOAuthCallbackMessage, unknown>>
  if (message.type !== 'mcp-oauth-callback' || typeof message.state !== 'string' || !expected.state || message.state !== expected.state) return undefined
  if (typeof message.error === 'string' && message.error) {
    const detail = typeof message.errorDescription === 'string' && message.errorDescription ? `: ${message.errorDescription}` : ''
    return { type: 'refused', reason: `${message.error}${detail}` }
  }
  if (typeof message.code !== 'string' || !message.code) return { type: 'refused', reason: 'the server sent no authorization code' }
  return { type: 'code', code: message.code, ...(typeof message.iss === 'string' && message.iss ? { iss: message.iss } : {}) }
}

/** The sentence Settings shows for a sign-in that did not finish. */
export function describeMcpSignInFailure(server: string, reason: string): string {
  if (reason.startsWith('access_denied')) return `Sign-in to ${server} was refused: the authorization server denied access. Nothing changed.`
  return `Sign-in to ${server} did not finish (${reason}). Nothing changed.`
}
