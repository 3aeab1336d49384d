import type { McpServerInput, McpServerStatus, McpServerSummary } from '../mcp'
import type { McpSignInStart } from '../mcp-oauth'

/**
 * The remote MCP servers as configured. Header values go in (a header sent without one keeps the stored value) and
 * never come out.
 */
export interface McpServersApi {
  listMcpServers(): McpServerSummary[]
  saveMcpServer(input: McpServerInput): McpServerSummary[]
  removeMcpServer(name: string): McpServerSummary[]
}

/** The remote MCP servers as connected: their state, and OAuth sign-in to those that offer it. */
export interface McpConnectionApi {
  /** Each server's state, connecting to those not connected yet (`refresh`: reconnect every one). */
  mcpStatus(input: { refresh?: boolean }): McpServerStatus[]
  /**
   * Starts an OAuth sign-in to a server that offers it: answers the authorization URL for the page to open in a popup
   * (the worker cannot), and the state its callback must carry.
   */
  mcpSignIn(input: { name: string }): McpSignInStart
  /** Exchanges the code the callback page got for tokens (kept like keys, never handed out); answers the statuses. */
  mcpFinishSignIn(input: { name: string; code: string; state: string; iss?: string }): McpServerStatus[]
  /** Forgets a server's OAuth tokens and client; answers the statuses. */
  mcpSignOut(input: { name: string }): McpServerStatus[]
}
