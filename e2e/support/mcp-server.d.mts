// Types for mcp-server.mjs (plain JavaScript so that it also runs on its own with `node`).

export interface McpTestServer {
  /** `http://host:port`; the MCP endpoint is `${url}/mcp` (`${url}/closed/mcp` without CORS headers, `${url}/sse/mcp` over HTTP+SSE, `${url}/oauth/mcp` behind OAuth). */
  url: string
  /** The tool calls answered so far, oldest first; `bearer`: the OAuth token a call to /oauth/mcp came with. */
  calls: { tool: string; input: Record<string, unknown>; bearer?: string }[]
  /** The OAuth side of /oauth/mcp: `deny` makes /authorize refuse, `hold` makes it never answer; `issued` lists the access tokens given out. */
  oauth: { deny: boolean; hold: boolean; issued: string[]; registered: number }
  close(): Promise<void>
}

export function startMcpServer(options?: { port?: number; host?: string }): Promise<McpTestServer>
