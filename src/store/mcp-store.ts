import { liveQuery } from 'dexie'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { NotFoundError } from '../core/errors'
import { applyMcpServerInput, mcpSecrets, readMcpServers, summarizeMcpServer, type McpServerConfig, type McpServerSummary } from '../core/mcp'

const SETTING_KEY = 'mcp.servers'

async function serversIn(db: TabcodeDatabase): Promise<McpServerConfig[]> {
  const row = await db.settings.get(SETTING_KEY)
  return readMcpServers(row?.value)
}

/** The configured servers with their header values: for the engine's connections only, never for the page. */
export function loadMcpServers(context: Pick<StoreContext, 'db'>): Promise<McpServerConfig[]> {
  return serversIn(context.db)
}

export async function listMcpServers(context: StoreContext): Promise<McpServerSummary[]> {
  return (await serversIn(context.db)).map(summarizeMcpServer)
}

/** Adds or replaces one server (see `applyMcpServerInput`); answers with the new list. */
export async function saveMcpServer(context: StoreContext, input: unknown): Promise<McpServerSummary[]> {
  const { db } = context
  const next = await db.transaction('rw', db.settings, async () => {
    const servers = applyMcpServerInput(await serversIn(db), input)
    await db.settings.put({ key: SETTING_KEY, value: servers })
    return servers
  })
  return next.map(summarizeMcpServer)
}

export async function removeMcpServer(context: StoreContext, name: string): Promise<McpServerSummary[]> {
  const { db } = context
  const next = await db.transaction('rw', db.settings, async () => {
    const servers = await serversIn(db)
    if (!servers.some((server) => server.name === name)) throw new NotFoundError('MCP server', name)
    const kept = servers.filter((server) => server.name !== name)
    await db.settings.put({ key: SETTING_KEY, value: kept })
    return kept
  })
  return next.map(summarizeMcpServer)
}

/** Calls `next` with the stored header values now and whenever any tab changes them (the logger redacts them). */
export function watchMcpSecrets(
  db: TabcodeDatabase,
  observer: { next: (secrets: string[]) => void; error: (error: unknown) => void },
): { unsubscribe(): void } {
  return liveQuery(() => serversIn(db)).subscribe({
    next: (servers) => observer.next(mcpSecrets(servers)),
    error: observer.error,
  })
}
