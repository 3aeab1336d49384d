import { liveQuery } from 'dexie'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { NotFoundError } from '../core/errors'
import { applyMcpServerInput, McpServerInputSchema, mcpSecrets, readMcpServers, summarizeMcpServer, type McpServerConfig, type McpServerSummary } from '../core/mcp'
import { isMcpSignedIn, mcpOAuthRecordFor, mcpOAuthSecrets, readMcpOAuthRecords, type McpOAuthRecord, type McpOAuthRecords } from '../core/mcp-oauth'
import { write } from './transaction'

const SETTING_KEY = 'mcp.servers'
/** OAuth credentials by server name: secrets, kept apart from the server list so the page's reads never touch them. */
const OAUTH_KEY = 'mcp.oauth'

async function oauthIn(db: TabcodeDatabase): Promise<McpOAuthRecords> {
  return readMcpOAuthRecords((await db.settings.get(OAUTH_KEY))?.value)
}

async function serversIn(db: TabcodeDatabase): Promise<McpServerConfig[]> {
  const row = await db.settings.get(SETTING_KEY)
  return readMcpServers(row?.value)
}

/** The configured servers with their header values: for the engine's connections only, never for the page. */
export function loadMcpServers(context: Pick<StoreContext, 'db'>): Promise<McpServerConfig[]> {
  return serversIn(context.db)
}

export async function listMcpServers(context: StoreContext): Promise<McpServerSummary[]> {
  return summaries(context.db, await serversIn(context.db))
}

async function summaries(db: TabcodeDatabase, servers: McpServerConfig[]): Promise<McpServerSummary[]> {
  const records = await oauthIn(db)
  return servers.map((server) => ({ ...summarizeMcpServer(server), ...(isMcpSignedIn(mcpOAuthRecordFor(records, server.name, server.url)) ? { signedIn: true } : {}) }))
}

/** A server's OAuth record (an empty one when it has none, or one made for another URL): for the engine only. */
export async function loadMcpOAuth(context: Pick<StoreContext, 'db'>, server: Pick<McpServerConfig, 'name' | 'url'>): Promise<McpOAuthRecord> {
  return mcpOAuthRecordFor(await oauthIn(context.db), server.name, server.url)
}

/** Changes a server's OAuth record in one transaction, so two connections saving at once do not lose a write. */
export async function updateMcpOAuth(
  context: Pick<StoreContext, 'db'>,
  server: Pick<McpServerConfig, 'name' | 'url'>,
  change: (record: McpOAuthRecord) => McpOAuthRecord,
): Promise<McpOAuthRecord> {
  const { db } = context
  return write(context, [db.settings], async () => {
    const records = await oauthIn(db)
    const next = change(mcpOAuthRecordFor(records, server.name, server.url))
    await db.settings.put({ key: OAUTH_KEY, value: { ...records, [server.name]: next } })
    return next
  })
}

/** Sign out: forgets every credential of the server. */
export async function forgetMcpOAuth(context: Pick<StoreContext, 'db'>, name: string): Promise<void> {
  const { db } = context
  await write(context, [db.settings], async () => {
    const { [name]: _gone, ...kept } = await oauthIn(db)
    await db.settings.put({ key: OAUTH_KEY, value: kept })
  })
}

/** Adds or replaces one server (see `applyMcpServerInput`); answers with the new list. */
export async function saveMcpServer(context: StoreContext, input: unknown): Promise<McpServerSummary[]> {
  const { db } = context
  const next = await write(context, [db.settings], async () => {
    const servers = applyMcpServerInput(await serversIn(db), input)
    await db.settings.put({ key: SETTING_KEY, value: servers })
    // A renamed server keeps its sign-in (a record made for another URL is ignored when read).
    const { previous, name } = McpServerInputSchema.parse(input)
    const records = await oauthIn(db)
    if (previous !== undefined && previous !== name && records[previous]) {
      const { [previous]: record, ...rest } = records
      await db.settings.put({ key: OAUTH_KEY, value: { ...rest, [name]: record } })
    }
    return servers
  })
  return summaries(db, next)
}

export async function removeMcpServer(context: StoreContext, name: string): Promise<McpServerSummary[]> {
  const { db } = context
  const next = await write(context, [db.settings], async () => {
    const servers = await serversIn(db)
    if (!servers.some((server) => server.name === name)) throw new NotFoundError('MCP server', name)
    const kept = servers.filter((server) => server.name !== name)
    await db.settings.put({ key: SETTING_KEY, value: kept })
    const { [name]: _gone, ...records } = await oauthIn(db)
    await db.settings.put({ key: OAUTH_KEY, value: records })
    return kept
  })
  return summaries(db, next)
}

/** Calls `next` with the stored header values and OAuth credentials now and whenever any tab changes them (the logger redacts them). */
export function watchMcpSecrets(
  db: TabcodeDatabase,
  observer: { next: (secrets: string[]) => void; error: (error: unknown) => void },
): { unsubscribe(): void } {
  return liveQuery(async () => [...mcpSecrets(await serversIn(db)), ...mcpOAuthSecrets(await oauthIn(db))]).subscribe({
    next: (secrets) => observer.next(secrets),
    error: observer.error,
  })
}
