// Types for mcp-server.mjs.

export interface McpTestServer {
  /** `http://host:port`; the MCP endpoint is `${url}/mcp` (`${url}/closed/mcp` without CORS headers, `${url}/sse/mcp` over HTTP+SSE). */
  url: string
  /** The tool calls answered so far, oldest first. */
  calls: { tool: string; input: Record<string, unknown> }[]
  close(): Promise<void>
}

export function startMcpServer(options?: { port?: number; host?: string }): Promise<McpTestServer>
