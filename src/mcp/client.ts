import type { OAuthClientProvider } from '@ai-sdk/mcp'
import { classifyMcpFailure, type McpContent, type McpObservation, type McpServerConfig } from '../core/mcp'
import { InsecureMcpUrlError, isAllowedMcpUrl, McpRedirectError } from '../core/mcp-url'
import { redactSecrets } from '../core/redact'
import { McpConnectError, McpReplyError, type McpConnection, type McpConnector, type McpToolInfo } from './hub'

export interface McpClientOptions {
  fetch?: typeof fetch
  /** This page's origin, for the CORS advice. */
  origin: string
  /** Whether a failed `no-cors` probe proves that nothing answered (see provider-handlers' `detectOpaqueProbe`). */
  opaqueProbe: () => Promise<'conclusive' | 'inconclusive'>
  timeoutMs?: number
  /** The OAuth provider for a server signed in with OAuth (it sends and refreshes the tokens); undefined: none. */
  oauth?: (config: McpServerConfig) => Promise<OAuthClientProvider | undefined>
}

const CONNECT_TIMEOUT_MS = 15_000
const PROBE_TIMEOUT_MS = 5_000

/** What the transport's requests showed, kept to explain a failed connection. */
interface Seen {
  auth?: { status: number; oauth: boolean }
  status?: number
  network?: boolean
  /** A URL refused before any request went there (plain http to another machine). */
  insecure?: string
  /** A URL that answered with a redirect, which was not followed. */
  redirect?: string
}

/**
 * The fetch every MCP request goes through (to the server, to the endpoint an HTTP+SSE server names, to the OAuth
 * metadata, registration and token endpoints it points at): a URL that is not https (or http to this machine) is
 * refused before anything is sent, and no redirect is followed. A browser that follows one sends the next request,
 * headers and body included, before the page learns where it went (a `redirect: 'manual'` answer hides even that),
 * so every request goes out with `manual` and a redirect is refused with `McpRedirectError` (where `error` would
 * leave only a network error that reads like a server that is down). A caller that follows redirects itself, hop by
 * hop through this fetch (the SDK's OAuth discovery), asks for `manual` and gets the redirect to judge.
 */
export function secureMcpFetch(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!isAllowedMcpUrl(url)) throw new InsecureMcpUrlError(url)
    const asked = init?.redirect ?? (input instanceof Request ? input.redirect : 'follow')
    const response = await fetchImpl(input, { ...init, redirect: 'manual' })
    if (asked !== 'manual' && isRedirect(response)) {
      await response.body?.cancel().catch(() => {})
      throw new McpRedirectError(url)
    }
    return response
  }
}

/** A redirect as a browser gives it under `manual` (opaque), or as a fetch without that filtering (Node's) does. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400 && response.headers.has('location'))
}

/**
 * Connects with `@ai-sdk/mcp` (loaded on first use, so the engine's chunk does not carry it): Streamable HTTP first,
 * then the older HTTP+SSE transport when the server answers the first with an HTTP error that is not about auth.
 */
export function mcpConnector(options: McpClientOptions): McpConnector {
  const plainFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const fetchImpl = secureMcpFetch(plainFetch)
  const timeoutMs = options.timeoutMs ?? CONNECT_TIMEOUT_MS

  return async (config, connectOptions) => {
    // The hub never asks for such a server; a sign-in might, for a row an earlier build stored.
    if (!isAllowedMcpUrl(config.url)) throw new McpConnectError({ state: 'insecure', url: config.url })
    const secrets = config.headers.map((header) => header.value)
    const authProvider = connectOptions?.authProvider ?? (await options.oauth?.(config))
    const first = await open(config, 'http', authProvider)
    if (first.ok) return first.connection
    const http = first.seen
    if (!http.auth && !http.network && !http.insecure && !http.redirect && http.status !== undefined) {
      const second = await open(config, 'sse', authProvider)
      if (second.ok) return second.connection
    }
    throw new McpConnectError(classifyMcpFailure(await observation(config.url, http, first.error), options.origin), { cause: first.error })

    async function observation(url: string, seen: Seen, error: unknown): Promise<McpObservation> {
      if (seen.insecure) return { kind: 'insecure', url: seen.insecure }
      if (seen.redirect) return { kind: 'redirect', url: seen.redirect }
      if (seen.auth) return { kind: 'http', ...seen.auth }
      if (seen.network) {
        // Not through `secureMcpFetch`: a browser refuses a `no-cors` request that does not follow redirects. The
        // probe carries no header and no body, and its answer is opaque: it learns only that something answered,
        // at the address the user saved (checked above).
        const probe = await plainFetch(url, { method: 'GET', mode: 'no-cors', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
          () => 'answered' as const,
          () => 'failed' as const,
        )
        return { kind: 'network', probe, conclusive: (await options.opaqueProbe()) === 'conclusive' }
      }
      if (isTimeout(error)) return { kind: 'timeout', seconds: Math.round(timeoutMs / 1000) }
      if (seen.status !== undefined) return { kind: 'http', status: seen.status, oauth: false }
      return { kind: 'other', message: redactSecrets(error instanceof Error ? error.message : String(error), secrets) }
    }
  }

  async function open(config: McpServerConfig, type: 'http' | 'sse', authProvider: OAuthClientProvider | undefined): Promise<{ ok: true; connection: McpConnection } | { ok: false; seen: Seen; error: unknown }> {
    const { createMCPClient } = await import('@ai-sdk/mcp')
    const seen: Seen = {}
    const observed = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      let response: Response
      try {
        response = await fetchImpl(input, init)
      } catch (error) {
        if (error instanceof InsecureMcpUrlError) seen.insecure = error.data.url
        else if (error instanceof McpRedirectError) seen.redirect = error.data.url
        else if (!init?.signal?.aborted) seen.network = true
        throw error
      }
      if (response.status === 401 || response.status === 403) {
        // A server that does OAuth points at its metadata in WWW-Authenticate (when CORS lets the page read it).
        seen.auth = { status: response.status, oauth: /resource_metadata|Bearer/i.test(response.headers.get('www-authenticate') ?? '') }
      } else if (!response.ok && (init?.method ?? 'GET') === 'POST') seen.status = response.status
      return response
    }
    const headers = Object.fromEntries(config.headers.map((header) => [header.name, header.value]))
    try {
      const client = await createMCPClient({
        transport: { type, url: config.url, headers, fetch: observed, ...(authProvider ? { authProvider } : {}) },
        clientName: 'tabcode',
        initializationOptions: { signal: AbortSignal.timeout(timeoutMs) },
      })
      try {
        const tools = await listAll(client, timeoutMs)
        return { ok: true, connection: connection(client, tools) }
      } catch (error) {
        await client.close().catch(() => {})
        throw error
      }
    } catch (error) {
      return { ok: false, seen, error }
    }
  }
}

type Client = Awaited<ReturnType<typeof import('@ai-sdk/mcp').createMCPClient>>

async function listAll(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  // One bound for the whole listing: a server that hangs here must not hold a turn up either.
  const signal = AbortSignal.timeout(timeoutMs)
  const tools: McpToolInfo[] = []
  let cursor: string | undefined
  // A bound on pages, in case a server keeps handing out cursors.
  for (let page = 0; page < 20; page++) {
    const listed = await client.listTools({ ...(cursor ? { params: { cursor } } : {}), options: { signal } })
    for (const tool of listed.tools) tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Record<string, unknown> })
    cursor = listed.nextCursor
    if (!cursor) break
  }
  return tools
}

function connection(client: Client, tools: McpToolInfo[]): McpConnection {
  return {
    tools,
    async call(name, input, signal) {
      let result: Awaited<ReturnType<Client['callTool']>>
      try {
        result = await client.callTool({ name, arguments: input, options: { signal } })
      } catch (error) {
        throw asReply(error) ?? error
      }
      if ('content' in result && Array.isArray(result.content)) return { content: result.content as McpContent[], isError: result.isError === true }
      // The protocol's old form: a bare `toolResult`.
      const legacy = (result as { toolResult?: unknown }).toolResult
      return { content: [{ type: 'text', text: typeof legacy === 'string' ? legacy : JSON.stringify(legacy) }] }
    },
    close: () => client.close(),
  }
}

/**
 * A JSON-RPC error the server answered the call with (@ai-sdk/mcp gives it the reply's numeric `code`), as opposed to
 * a failure of the transport (an HTTP status, a closed connection, a timeout), which carries none.
 */
function asReply(error: unknown): McpReplyError | undefined {
  if (!(error instanceof Error) || error.name !== 'MCPClientError') return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'number' ? new McpReplyError(error.message, code) : undefined
}

function isTimeout(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return true
  }
  return false
}
