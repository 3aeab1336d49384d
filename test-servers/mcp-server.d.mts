// Types for mcp-server.mjs (plain JavaScript so that it also runs on its own with `node`).

export interface McpTestServer {
  /** `http://host:port`; the MCP endpoint is `${url}/mcp` (`${url}/closed/mcp` without CORS headers, `${url}/sse/mcp` over HTTP+SSE, `${url}/oauth/mcp` behind OAuth). */
  url: string
  /** The tool calls answered so far, oldest first; `bearer`: the OAuth token a call to /oauth/mcp came with. */
  calls: { tool: string; input: Record<string, unknown>; bearer?: string }[]
  /**
   * The OAuth side of /oauth/mcp: `deny` makes /authorize refuse, `hold` makes it never answer; `issued` lists the
   * access tokens given out; `authorizationEndpoint` and `tokenEndpoint`, when set, are what the metadata names instead
   * of its own (a hostile server's).
   */
  oauth: { deny: boolean; hold: boolean; issued: string[]; registered: number; authorizationEndpoint?: string | undefined; tokenEndpoint?: string | undefined }
  /**
   * The hostile server at `${url}/hostile/mcp`: `description` is what it lists for its `note` tool (change it for a rug
   * pull); `closed` holds when each request calling `endless` closed and `cancelled` when the server's work on such a
   * call was cancelled (ms since the epoch).
   */
  hostile: { description: string; closed: number[]; cancelled: number[] }
  close(): Promise<void>
}

/** The `note` tool's description until a test changes it. */
export const NOTE_DESCRIPTION: string

export function startMcpServer(options?: { port?: number; host?: string }): Promise<McpTestServer>
