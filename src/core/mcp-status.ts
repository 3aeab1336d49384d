/**
 * An MCP server's state as Settings shows it, and the sentence for it. Kept apart from core/mcp.ts so the page can
 * read it without loading zod (src/ui/bundle-boundary.test.ts); `McpStatusSchema` there is the same shape.
 */
export type McpStatus =
  | { state: 'connected'; tools: string[] }
  | { state: 'disabled' }
  /** The server answers but not to this origin: its CORS headers leave the page out. */
  | { state: 'cors'; origin: string }
  /** Nothing answered; `maybeCors` when this page cannot tell that from a CORS refusal (COEP hides opaque answers). */
  | { state: 'unreachable'; maybeCors: boolean }
  /** 401 or 403: it wants credentials (`oauth` when it points at an authorization server). */
  | { state: 'auth'; status: number; oauth: boolean }
  | { state: 'failed'; message: string }

export interface McpServerStatus {
  name: string
  status: McpStatus
}

/** The sentence Settings shows for a status. */
export function describeMcpStatus(status: McpStatus): string {
  switch (status.state) {
    case 'connected':
      return `Connected: ${status.tools.length} ${status.tools.length === 1 ? 'tool' : 'tools'}.`
    case 'disabled':
      return 'Disabled.'
    case 'cors':
      return `The server refuses requests from this page (CORS). Allow the origin ${status.origin} on the server: it must answer with Access-Control-Allow-Origin for it, allow the headers Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version and any you set here, and expose Mcp-Session-Id.`
    case 'unreachable':
      return status.maybeCors
        ? 'The server is unreachable, or it refuses requests from this page (CORS); this page cannot tell which. Check the URL, that the server is running, and that it allows this origin.'
        : 'The server is unreachable: nothing answered at that URL. Check the URL and that the server is running.'
    case 'auth':
      return status.oauth
        ? `The server needs authorization (HTTP ${status.status}) and offers OAuth: sign in, or add a token as an Authorization header.`
        : `The server needs authorization (HTTP ${status.status}): add its token as a header, such as Authorization: Bearer <token>.`
    case 'failed':
      return `Could not connect: ${status.message}`
  }
}

