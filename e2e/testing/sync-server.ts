import { lanePort } from './lane'

/** The CouchDB-protocol server playwright.config.ts starts (test-servers/sync-server.mjs); the port must match. */
export const SYNC_SERVER_URL = `http://127.0.0.1:${lanePort(Number(process.env.TABCODE_SYNC_E2E_PORT ?? 8822))}`

let count = 0

/** A database name no other test uses (the server lives for the whole run). */
export function newDatabaseName(prefix: string): string {
  return `${prefix}-${Date.now()}-${++count}`
}

async function json(path: string): Promise<unknown> {
  const response = await fetch(`${SYNC_SERVER_URL}/${path}`, { headers: { Accept: 'application/json' } })
  if (!response.ok) throw new Error(`sync server GET ${path}: HTTP ${response.status}`)
  return response.json()
}

/** Each document's id and winning revision, as the server lists them. */
export async function serverRevisions(database: string): Promise<string[]> {
  const listing = (await json(`${encodeURIComponent(database)}/_all_docs`)) as { rows: Array<{ id: string; value: { rev: string } }> }
  return listing.rows.map((row) => `${row.id} ${row.value.rev}`)
}

/**
 * Everything the server holds for a database, as one text: every document with every leaf revision (losing
 * conflicts included), its revision history, and the local checkpoint documents.
 */
export async function serverText(database: string): Promise<{ documents: number; text: string }> {
  const name = encodeURIComponent(database)
  const listing = (await json(`${name}/_all_docs`)) as { rows: Array<{ id: string }> }
  const bodies: unknown[] = []
  for (const row of listing.rows) bodies.push(await json(`${name}/${encodeURIComponent(row.id)}?open_revs=all&revs=true`))
  const changes = await json(`${name}/_changes?style=all_docs&include_docs=true`)
  return { documents: listing.rows.length, text: JSON.stringify([bodies, changes]) }
}
