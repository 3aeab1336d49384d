import type { OAuthClientProvider } from '@ai-sdk/mcp'
import { z } from 'zod'
import { log } from '../../core/log'
import { mcpToolName, mcpToolOutput, serversForAgent, type McpContent, type McpServerConfig, type McpServerStatus, type McpStatus } from '../../core/mcp'
import { redactSecrets } from '../../core/redact'
import { defineTool, type ToolDefinition } from '../../tools/tool'

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

/** A connection that could not be made, with the status that says why. */
export class McpConnectError extends Error {
  override name = 'McpConnectError'
  constructor(
    readonly status: McpStatus,
    options?: { cause?: unknown },
  ) {
    super(`MCP connection failed: ${status.state}`, options)
  }
}

/** `authProvider`: the OAuth provider of a sign-in in progress, instead of the stored sign-in's. */
export type McpConnector = (config: McpServerConfig, options?: { authProvider?: OAuthClientProvider }) => Promise<McpConnection>

export interface McpHub {
  /** Every configured server's state, connecting those not tried yet (`refresh`: each one again). */
  status(options?: { refresh?: boolean }): Promise<McpServerStatus[]>
  /** The tools of the servers the agent may use, connected or not: a failing server just adds none. */
  tools(agent: string): Promise<ToolDefinition[]>
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
}

export interface McpHubOptions {
  servers: () => Promise<McpServerConfig[]>
  connect: McpConnector
  now?: () => number
}

/**
 * The engine's MCP connections, one per configured server, made on first use and kept while the worker lives. A
 * changed configuration (URL, headers) reconnects; a removed server is closed.
 */
export function createMcpHub(options: McpHubOptions): McpHub {
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()

  function forget(name: string) {
    const entry = entries.get(name)
    entries.delete(name)
    void entry?.attempt.then((attempt) => (attempt.ok ? attempt.connection.close() : undefined)).catch(() => {})
  }

  function attempt(config: McpServerConfig, refresh: boolean): Promise<Attempt> {
    const fingerprint = JSON.stringify([config.url, config.headers])
    const entry = entries.get(config.name)
    if (entry && entry.fingerprint === fingerprint && !refresh) {
      const stale = now() - entry.at > MCP_RETRY_MS
      const failed = entry.attempt.then((result) => !result.ok)
      // A failure is kept for a while, so a turn after a turn does not wait on a dead server each time.
      if (!stale) return entry.attempt
      return failed.then((isFailed) => (isFailed ? attempt(config, true) : entry.attempt))
    }
    if (entry) forget(config.name)
    const started: Promise<Attempt> = options.connect(config).then(
      (connection): Attempt => ({ ok: true, connection }),
      (error: unknown): Attempt => {
        if (error instanceof McpConnectError) return { ok: false, status: error.status }
        log.warn(`tabcode: the MCP server ${config.name} failed to connect`, error)
        return { ok: false, status: { state: 'failed', message: error instanceof Error ? error.message : String(error) } }
      },
    )
    entries.set(config.name, { fingerprint, at: now(), attempt: started })
    return started
  }

  async function configured(): Promise<McpServerConfig[]> {
    const servers = await options.servers()
    for (const name of [...entries.keys()]) if (!servers.some((server) => server.name === name && server.enabled)) forget(name)
    return servers
  }

  function definitions(config: McpServerConfig, connection: McpConnection): ToolDefinition[] {
    return connection.tools.map((tool) => {
      const id = mcpToolName(config.name, tool.name)
      return defineTool({
        id,
        description: tool.description ?? `The ${tool.name} tool of the MCP server ${config.name}.`,
        // The server validates its own input; the model is given the server's schema as it is.
        parameters: z.record(z.string(), z.unknown()),
        inputSchema: { ...withoutDialect(tool.inputSchema), type: 'object' },
        async execute(input, context) {
          await context.ask({ permission: id, patterns: ['*'], always: ['*'], metadata: { server: config.name, tool: tool.name, input } })
          let result: McpCallResult
          try {
            result = await connection.call(tool.name, input, context.abort)
          } catch (error) {
            if (context.abort.aborted) throw error
            // The connection may be gone (the server restarted): the next turn connects afresh.
            forget(config.name)
            // The model and the stored part see the message: never with a header value a server echoed.
            const message = error instanceof Error ? error.message : String(error)
            throw new Error(`The MCP server ${config.name} failed: ${redactSecrets(message, config.headers.map((header) => header.value))}`)
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
      })
    })
  }

  return {
    async status({ refresh = false } = {}) {
      const servers = await configured()
      return Promise.all(
        servers.map(async (config): Promise<McpServerStatus> => {
          if (!config.enabled) return { name: config.name, status: { state: 'disabled' } }
          const result = await attempt(config, refresh)
          return { name: config.name, status: result.ok ? { state: 'connected', tools: result.connection.tools.map((tool) => mcpToolName(config.name, tool.name)) } : result.status }
        }),
      )
    },
    async tools(agent) {
      let servers: McpServerConfig[]
      try {
        servers = serversForAgent(await configured(), agent)
      } catch (error) {
        log.warn('tabcode: could not read the MCP servers', error)
        return []
      }
      const results = await Promise.all(servers.map(async (config) => ({ config, result: await attempt(config, false) })))
      return results.flatMap(({ config, result }) => (result.ok ? definitions(config, result.connection) : []))
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
