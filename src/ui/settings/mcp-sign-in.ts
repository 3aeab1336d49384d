import { MCP_OAUTH_CHANNEL, readMcpOAuthCallback, type McpOAuthCallback } from '../../core/mcp-oauth-callback'

export type McpSignInOutcome = McpOAuthCallback | { type: 'cancelled' }

/**
 * Waits for the callback page's answer to the sign-in carrying `state`: by BroadcastChannel (the popup's opener is
 * gone under COOP once it visited the authorization server) or by postMessage from this origin. Other messages are
 * ignored; `signal` ends the wait as cancelled.
 */
export function waitForMcpOAuthCallback(state: string, signal: AbortSignal, target: Window = window): Promise<McpSignInOutcome> {
  const expected = { state, origin: target.location.origin }
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(MCP_OAUTH_CHANNEL)
    const done = (outcome: McpSignInOutcome) => {
      channel.close()
      target.removeEventListener('message', onMessage)
      signal.removeEventListener('abort', onAbort)
      resolve(outcome)
    }
    const onMessage = (event: MessageEvent) => {
      const callback = readMcpOAuthCallback(event.data, expected, event.origin)
      if (callback) done(callback)
    }
    const onAbort = () => done({ type: 'cancelled' })
    channel.onmessage = (event: MessageEvent) => {
      const callback = readMcpOAuthCallback(event.data, expected)
      if (callback) done(callback)
    }
    target.addEventListener('message', onMessage)
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort)
  })
}
