// Zod-free on purpose: the page checks a sign-in address with it before opening it (ui/settings/mcp-settings.tsx).
import { defineError } from './errors'
import { isLoopbackHost } from './provider/presets'

/**
 * Whether tabcode may talk to an MCP server, or to an authorization server it points at, at this URL: `https:`
 * anywhere, `http:` only on this machine (localhost, 127.0.0.1, ::1). Anything else would carry header values, OAuth
 * codes and tokens, and every tool call in clear text, and a plain-http server anywhere on the path could rewrite the
 * tools' descriptions.
 */
export function isAllowedMcpUrl(url: string | URL): boolean {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : url
  } catch {
    return false
  }
  if (parsed.protocol === 'https:') return true
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)
}

/** Why a URL is refused, in the words Settings and the sign-in show; `what` names it ("The server URL"). */
export function describeRefusedMcpUrl(what: string, url: string): string {
  return `${what} ${url} is not https: tabcode talks to MCP servers and their sign-in only over https:// (plain http:// only to this machine: localhost, 127.0.0.1 or ::1).`
}

/** A request of the MCP client (to the server, or to the sign-in it points at) refused for its URL; nothing was sent. */
export const InsecureMcpUrlError = defineError('InsecureMcpUrlError', (url: string) => ({
  message: describeRefusedMcpUrl('The address', url),
  data: { url },
}))

/**
 * An MCP request answered with a redirect, which is not followed: a browser sends the next request (headers and body
 * included) before the page can see where it goes, so following one could send them to any host, plain http included.
 */
export const McpRedirectError = defineError('McpRedirectError', (url: string) => ({
  message: `${url} answered with a redirect, which tabcode does not follow for MCP servers (the browser would send the request on before anyone could see where to): use the address it redirects to.`,
  data: { url },
}))
