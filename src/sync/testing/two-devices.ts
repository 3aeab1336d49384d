import type { StoreContext } from '../../store/context'
import { makeTestContext } from '../../testing/test-context'
import { CouchDatabase } from '../couch'
import { replicate, type ReplicateOptions, type SyncKey } from '../replicator'
import type { CouchServer } from './couch-server'

/*
 * Devices for the sync tests (issue 31): each a fake-IndexedDB database with a recording event sink, syncing with a
 * database of a real CouchDB-protocol server.
 */

export const PASSPHRASE = 'orange kettle under the stairs'

export interface Device {
  context: StoreContext
  events: ReturnType<typeof makeTestContext>['events']
  name: string
}

export function device(name: string): Device {
  const { context, events } = makeTestContext()
  return { context, events, name }
}

export async function newDatabase(server: CouchServer): Promise<CouchDatabase> {
  const database = new CouchDatabase({ url: server.url, database: `sync-${crypto.randomUUID()}` })
  await database.createDatabase()
  return database
}

/** Another handle on the same database, e.g. through a fetch that records or breaks. */
export function sameDatabase(server: CouchServer, database: CouchDatabase, fetcher?: typeof fetch): CouchDatabase {
  return new CouchDatabase({ url: server.url, database: decodeURIComponent(database.base.split('/').pop()!), fetch: fetcher })
}

/** Every live document on the server, with its conflicts. */
export async function serverDocuments(database: CouchDatabase): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${database.base}/_all_docs?include_docs=true&conflicts=true`)
  const body = (await response.json()) as { rows: Array<{ doc: Record<string, unknown> }> }
  return body.rows.map((row) => row.doc)
}

export async function sync(target: Device, database: CouchDatabase, key: SyncKey, options: Partial<ReplicateOptions> = {}) {
  return await replicate({ context: target.context, server: database, key, device: target.name, ...options })
}
