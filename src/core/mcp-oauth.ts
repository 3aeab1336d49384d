import { z } from 'zod'
import { defineError } from './errors'

/**
 * What tabcode keeps of one MCP server's OAuth sign-in (issue 19): the dynamically registered client, the tokens, and
 * a pending flow's PKCE verifier and state. The protocol itself is `@ai-sdk/mcp`'s; these are the values its
 * `OAuthClientProvider` asks to keep. Every value is a secret like an API key: stored in IndexedDB only, never
 * exported, shown or logged (the logger redacts `mcpOAuthSecrets`).
 */

// The library's own shapes pass through as they are (they carry fields of later spec revisions): only what tabcode
// reads is checked.
const ClientInformationSchema = z.looseObject({ client_id: z.string(), client_secret: z.string().optional() })
const TokensSchema = z.looseObject({ access_token: z.string(), token_type: z.string(), refresh_token: z.string().optional() })
const AuthorizationServerSchema = z.object({ issuer: z.string().optional(), authorizationServerUrl: z.string(), tokenEndpoint: z.string() })

export const McpOAuthRecordSchema = z.object({
  type: z.literal('mcp-oauth'),
  /** The server URL the credentials were made for: a server moved to another URL starts afresh. */
  url: z.string(),
  clientInformation: ClientInformationSchema.optional(),
  dynamicallyRegistered: z.boolean().optional(),
  tokens: TokensSchema.optional(),
  codeVerifier: z.string().optional(),
  state: z.string().optional(),
  authorizationServer: AuthorizationServerSchema.optional(),
})
export type McpOAuthRecord = z.infer<typeof McpOAuthRecordSchema>

/** Records by server name (the `mcp.oauth` setting). */
export type McpOAuthRecords = Record<string, McpOAuthRecord>

/** The stored records read tolerantly: a row this build cannot read is dropped (the user signs in again). */
export function readMcpOAuthRecords(value: unknown): McpOAuthRecords {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  const records: McpOAuthRecords = {}
  for (const [name, row] of Object.entries(value)) {
    const parsed = McpOAuthRecordSchema.safeParse(row)
    if (parsed.success) records[name] = parsed.data
  }
  return records
}

/** The record for a server at `url`; one made for another URL counts as none. */
export function mcpOAuthRecordFor(records: McpOAuthRecords, name: string, url: string): McpOAuthRecord {
  const record = records[name]
  return record && record.url === url ? record : { type: 'mcp-oauth', url }
}

/** Whether the server has tokens to send (Settings offers Sign out). */
export function isMcpSignedIn(record: McpOAuthRecord | undefined): boolean {
  return !!record?.tokens
}

/** Every secret in the records, for the logger's redaction. */
export function mcpOAuthSecrets(records: McpOAuthRecords): string[] {
  return Object.values(records).flatMap((record) =>
    [record.tokens?.access_token, record.tokens?.refresh_token, record.clientInformation?.client_secret, record.codeVerifier].filter(
      (value): value is string => !!value,
    ),
  )
}

/** What starting a sign-in answers: the URL to open in a popup (and the state its callback must carry), or nothing to do. */
export const McpSignInStartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authorize'), url: z.url(), state: z.string() }),
  z.object({ type: z.literal('connected') }),
])
export type McpSignInStart = z.infer<typeof McpSignInStartSchema>

/** A sign-in that could not start or finish; the message says why, without secrets. */
export const McpSignInError = defineError('McpSignInError', (server: string, reason: string) => ({
  message: `Sign-in to ${server} failed: ${reason}`,
  data: { server },
}))
