import type { OAuthClientProvider } from '@ai-sdk/mcp'
import { z } from 'zod'
import { defineError } from '../core/errors'
import { log } from '../core/log'
import {
  mcpToolOutput,
  nameMcpTools,
  nameMcpToolsForAgents,
  pinMcpTool,
  RESERVED_MCP_NAMES,
  serversForAgent,
  type McpContent,
  type McpServerConfig,
  type McpServerStatus,
  type McpStatus,
  type McpToolNaming,
} from '../core/mcp'
import { isAllowedMcpUrl } from '../core/mcp-url'
import { redactSecrets } from '../core/redact'
import { defineTool, type ToolDefinition } from '../tools/tool'

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string
  description?: string | undefined
  inputSchema: Record<string, unknown>
}

export interface McpCallResult {
  content: McpContent[]
  isError?: boolean | undefined
}

/** One live connection to a server (made by `@ai-sdk/mcp` in `client.ts`; by a fake in tests). */
export interface McpConnection {
  tools: McpToolInfo[]
  call(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>
  close(): Promise<void>
}

const McpConnectErrorDefinition = defineError('McpConnectError', (status: McpStatus, options?: { cause?: unknown }) => ({
  message: `MCP connection failed: ${status.state}`,
  data: { status },
  cause: options?.cause,
}))

/** A connection that could not be made, with the status that says why. */
export class McpConnectError extends McpConnectErrorDefinition {
  get status(): McpStatus {
    return this.data.status
  }
}

/**
 * The server answered a call with an error of its own (a JSON-RPC error such as invalid params): the call failed, but
 * the connection is sound, so it is kept.
 */
export const McpReplyError = defineError('McpReplyError', (message: string, code: number) => ({ message, data: { code } }))
export type McpReplyError = InstanceType<typeof McpReplyError>

/** `authProvider`: the OAuth provider of a sign-in in progress, instead of the stored sign-in's. */
export type McpConnector = (config: McpServerConfig, options?: { authProvider?: OAuthClientProvider }) => Promise<McpConnection>

export interface McpHub {
  /** Every configured server's state, connecting those not tried yet (`refresh`: each one again). */
  status(options?: { refresh?: boolean }): Promise<McpServerStatus[]>
  /** The servers' configuration as stored (a turn reads it once, for all its steps). */
  servers(): Promise<McpServerConfig[]>
  /**
   * The tools of the servers the agent may use, connected or not: a failing server just adds none. `servers`: the
   * configuration as the turn read it (`servers()`); without it, read now.
   */
  tools(agent: string, servers?: McpServerConfig[]): Promise<ToolDefinition[]>
  /** Drops the server's connection (after a sign-in or sign-out): the next use connects afresh. */
  reset(name: string): void
  close(): void
}

/** How long a failed connection stands before a turn tries the server again (Settings can retry at once). */
export const MCP_RETRY_MS = 30_000

type Attempt = { ok: true; connection: McpConnection } | { ok: false; status: McpStatus }

interface Entry {
  fingerprint: string
  at: number
  attempt: Promise<Attempt>
  /** The attempt's connection once it is made. */
  connection?: McpConnection
}

/** The calls a connection is running, and whether it has been dropped (it closes once they are over) and closed. */
interface Use {
  calls: number
  retired: boolean
  closed: boolean
}

export interface McpHubOptions {
  servers: () => Promise<McpServerConfig[]>
  connect: McpConnector
  now?: () => number
  /** Names no MCP tool may take: the built-in tools' and the permissions' (default: `RESERVED_MCP_NAMES`). */
  reserved?: readonly string[]
}

/**
 * The engine's MCP connections, one per configured server, made on first use and kept while the worker lives. A
 * changed configuration (URL, headers) reconnects; a removed server is closed. A server whose URL is plain http to
 * another machine is never connected to.
 */
export function createMcpHub(options: McpHubOptions): McpHub {
  const now = options.now ?? Date.now
  const reserved = options.reserved ?? RESERVED_MCP_NAMES
  const entries = new Map<string, Entry>()
  const uses = new WeakMap<McpConnection, Use>()

  function forget(name: string) {
    const entry = entries.get(name)
    entries.delete(name)
    void entry?.attempt.then((attempt) => (attempt.ok ? attempt.connection.close() : undefined)).catch(() => {})
  }

  function useOf(connection: McpConnection): Use {
    let use = uses.get(connection)
    if (!use) uses.set(connection, (use = { calls: 0, retired: false, closed: false }))
    return use
  }

  function closeIfIdle(connection: McpConnection) {
    const use = useOf(connection)
    if (!use.retired || use.calls > 0 || use.closed) return
    use.closed = true
    void connection.close().catch(() => {})
  }

  /**
   * Drops a connection whose call was stopped or whose transport failed (not one the server answered with an error):
   * the next use connects afresh, and the connection closes as
   * soon as no other call runs on it. Closing ends the session with the server, which is how a server that keeps
   * working after its request closed (a server may take a closed request for no cancellation, and @ai-sdk/mcp
   * sends no notifications/cancelled; the hostile server in `test-servers/mcp-server.mjs` does just that) learns that the call is over; on the older HTTP+SSE transport, where the answer
   * comes on the connection's one stream, it is the only way.
   */
  function retire(name: string, connection: McpConnection) {
    if (entries.get(name)?.connection === connection) entries.delete(name)
    useOf(connection).retired = true
    closeIfIdle(connection)
  }

  /** Runs a call on a connection; a stopped call is over at once, whatever the library still does with it. */
  async function call(name: string, connection: McpConnection, tool: string, input: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const use = useOf(connection)
    use.calls++
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      use.calls--
      closeIfIdle(connection)
    }
    let onAbort: (() => void) | undefined
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => {
        end()
        retire(name, connection)
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('The call was stopped.', 'AbortError'))
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      return await Promise.race([connection.call(tool, input, signal), stopped])
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort)
      end()
    }
  }

  function attempt(config: McpServerConfig, refresh: boolean): Promise<Attempt> {
    // Stored by an earlier build that took plain http to any host: refused here too, not only when saving.
    if (!isAllowedMcpUrl(config.url)) return Promise.resolve({ ok: false, status: { state: 'insecure', url: config.url } })
    const fingerprint = JSON.stringify([config.url, config.headers])
    const current = entries.get(config.name)
    if (current && current.fingerprint === fingerprint && !refresh) {
      const stale = now() - current.at > MCP_RETRY_MS
      const failed = current.attempt.then((result) => !result.ok)
      // A failure is kept for a while, so a turn after a turn does not wait on a dead server each time.
      if (!stale) return current.attempt
      return failed.then((isFailed) => (isFailed ? attempt(config, true) : current.attempt))
    }
    if (current) forget(config.name)
    const started: Promise<Attempt> = options.connect(config).then(
      (connection): Attempt => ({ ok: true, connection }),
      (error: unknown): Attempt => {
        if (error instanceof McpConnectError) return { ok: false, status: error.status }
        log.warn(`tabcode: the MCP server ${config.name} failed to connect`, error)
        return { ok: false, status: { state: 'failed', message: error instanceof Error ? error.message : String(error) } }
      },
    )
    const entry: Entry = { fingerprint, at: now(), attempt: started }
    // Registered before anyone else waits on the attempt, so whoever gets the connection finds it on the entry.
    void started.then((result) => {
      if (result.ok) entry.connection = result.connection
    })
    entries.set(config.name, entry)
    return started
  }

  async function configured(given?: McpServerConfig[]): Promise<McpServerConfig[]> {
    const servers = given ?? (await options.servers())
    for (const name of [...entries.keys()]) if (!servers.some((server) => server.name === name && server.enabled)) forget(name)
    return servers
  }

  const listing = ({ config, connection }: { config: McpServerConfig; connection: McpConnection }) => ({
    server: config.name,
    agents: config.agents,
    tools: connection.tools.map((tool) => tool.name),
  })

  function definitions(config: McpServerConfig, connection: McpConnection, naming: McpToolNaming): ToolDefinition[] {
    return naming.offered.flatMap(({ tool: toolName, name: id }) => {
      const tool = connection.tools.find((candidate) => candidate.name === toolName)
      if (!tool) return []
      const pinned = pinMcpTool(config.name, tool)
      return [
        defineTool({
          id,
          description: tool.description ?? `The ${tool.name} tool of the MCP server ${config.name}.`,
          // The server validates its own input; the model is given the server's schema as it is.
          parameters: z.record(z.string(), z.unknown()),
          inputSchema: { ...withoutDialect(tool.inputSchema), type: 'object' },
          async execute(input, context) {
            // The definition the model was given goes with the question: an approval holds only while it is the same.
            await context.ask({ permission: id, patterns: ['*'], always: ['*'], metadata: { server: config.name, tool: tool.name, input }, tool: pinned })
            let result: McpCallResult
            try {
              result = await call(config.name, connection, tool.name, input, context.abort)
            } catch (error) {
              if (context.abort.aborted) throw error
              // The model and the stored part see the message: never with a header value a server echoed.
              const message = redactSecrets(error instanceof Error ? error.message : String(error), config.headers.map((header) => header.value))
              // The server answered: the connection is sound, and the model may call again with better input.
              if (error instanceof McpReplyError) throw new Error(`The MCP server ${config.name} refused the call: ${message}`)
              // The connection may be gone (the server restarted): the next call connects afresh.
              retire(config.name, connection)
              throw new Error(`The MCP server ${config.name} failed: ${message}`)
            }
            const { output, attachments } = mcpToolOutput(result.content)
            if (result.isError) throw new Error(output || `The MCP tool ${tool.name} of ${config.name} failed.`)
            return {
              title: `${config.name} ${tool.name}`,
              output,
              metadata: { server: config.name, tool: tool.name },
              ...(attachments.length ? { attachments } : {}),
            }
          },
        }),
      ]
    })
  }

  return {
    servers: () => options.servers(),
    async status({ refresh = false } = {}) {
      const servers = await configured()
      const results = await Promise.all(servers.map(async (config) => ({ config, result: config.enabled ? await attempt(config, refresh) : undefined })))
      // Named as each agent's turn names them (`tools`), so Settings says which agents a collision keeps a tool from.
      const connected = results.flatMap(({ config, result }) => (result?.ok ? [{ config, connection: result.connection }] : []))
      const naming = new Map(nameMcpToolsForAgents(connected.map(listing), reserved).map((entry) => [entry.server, entry]))
      return results.map(({ config, result }): McpServerStatus => {
        if (!result) return { name: config.name, status: { state: 'disabled' } }
        if (!result.ok) return { name: config.name, status: result.status }
        const { offered, collisions } = naming.get(config.name) ?? { offered: [], collisions: [] }
        return { name: config.name, status: { state: 'connected', tools: offered.map((tool) => tool.name), ...(collisions.length ? { collisions } : {}) } }
      })
    },
    async tools(agent, given) {
      let servers: McpServerConfig[]
      try {
        servers = serversForAgent(await configured(given), agent)
      } catch (error) {
        log.warn('tabcode: could not read the MCP servers', error)
        return []
      }
      const results = await Promise.all(servers.map(async (config) => ({ config, result: await attempt(config, false) })))
      const connected = results.flatMap(({ config, result }) => (result.ok ? [{ config, connection: result.connection }] : []))
      const naming = nameMcpTools(connected.map(listing), reserved)
      return connected.flatMap(({ config, connection }, index) => definitions(config, connection, naming[index]!))
    },
    reset: (name) => forget(name),
    close() {
      for (const name of [...entries.keys()]) forget(name)
    },
  }
}

/** A server's schema without its `$schema` dialect line, which some providers reject in tool definitions. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema
  return rest
}
