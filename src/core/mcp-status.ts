/**
 * An MCP server's state as Settings shows it, and the sentence for it. Kept apart from core/mcp.ts so the page can
 * read it without loading zod (src/ui/app/bundle-boundary.test.ts); `McpStatusSchema` there is the same shape.
 */
export type McpStatus =
  /** `tools`: the names offered to the model; `collisions`: the tools not offered because their names collide. */
  | { state: 'connected'; tools: string[]; collisions?: McpToolCollision[] }
  | { state: 'disabled' }
  /**
   * Not connected because `url` is plain http to another machine: its own URL (stored by an earlier build), or one it
   * sent the client to (a redirect, an endpoint, an authorization server).
   */
  | { state: 'insecure'; url: string }
  /** The server answers but not to this origin: its CORS headers leave the page out. */
  | { state: 'cors'; origin: string }
  /** Nothing answered; `maybeCors` when this page cannot tell that from a CORS refusal (COEP hides opaque answers). */
  | { state: 'unreachable'; maybeCors: boolean }
  /** 401 or 403: it wants credentials (`oauth` when it points at an authorization server). */
  | { state: 'auth'; status: number; oauth: boolean }
  | { state: 'failed'; message: string }

/**
 * Tools of one server that are not offered because the model would call them by the same name as another tool (names
 * are sanitised and compared without case: `a.b` and `A_b` are one name to a model).
 */
export interface McpToolCollision {
  /** The name they would share. */
  name: string
  /** This server's tools that have it, as the server lists them. */
  tools: string[]
  /** Other servers' tools that have it. */
  elsewhere: { server: string; tool: string }[]
  /** A built-in tool or permission has it. */
  builtin: boolean
  /**
   * The agents whose turns meet it, when others are offered the tool (its other owner is a server only some agents
   * are offered); absent when it keeps the tool from every agent the server is offered to.
   */
  agents?: string[]
}

export interface McpServerStatus {
  name: string
  status: McpStatus
}

/** The sentence Settings shows for a status. */
export function describeMcpStatus(status: McpStatus): string {
  switch (status.state) {
    case 'connected': {
      const connected = `Connected: ${status.tools.length} ${status.tools.length === 1 ? 'tool' : 'tools'}.`
      if (!status.collisions?.length) return connected
      return `${connected} Not offered, because their names collide: ${status.collisions.map(describeCollision).join('; ')}.`
    }
    case 'disabled':
      return 'Disabled.'
    case 'insecure':
      return `Not connected: ${status.url} is not an https address. tabcode talks to MCP servers, and the sign-in they point to, only over https:// (plain http:// only to this machine: localhost, 127.0.0.1 or ::1).`
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


function describeCollision(collision: McpToolCollision): string {
  const quoted = collision.tools.map((tool) => `“${tool}”`)
  const others = collision.elsewhere.map((other) => `“${other.tool}” of the server ${other.server}`)
  const owners = [...quoted, ...others]
  const list = andList(owners)
  const agents = collision.agents?.length ? ` for ${collision.agents.length === 1 ? 'the agent' : 'the agents'} ${andList(collision.agents)}` : ''
  if (collision.builtin) return `${list} would be named ${collision.name}, which tabcode uses itself${agents}`
  return `${list} would ${owners.length === 2 ? 'both' : 'all'} be named ${collision.name}${agents}`
}

function andList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join('')
}
