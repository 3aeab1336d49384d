import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie'
import { SyncTableSchema, type LocalKey, type SyncOutboxEntry, type SyncTable } from '../core/sync-state'

/*
 * The change log sync pushes from (issue 31, docs/sync.md "Noticing local changes"): while sync is set up, every
 * write of a synced table also puts `<table, key>` into `syncOutbox`, in the write's own transaction, so a push reads
 * what changed since the last one instead of hashing every row. Like the word index (`search-index.ts`) it is a
 * Dexie middleware, so every write path (the part writer, imports, forks, reverts, cascading deletes, the workspace's
 * commits) records without knowing it exists, and a failed transaction leaves no entry.
 *
 * While sync is not set up the middleware only reads a boolean: no transaction is widened and nothing more is
 * written, so the agent loop's cost per step is what it was without sync (issue 32 measures it).
 */

export const OUTBOX_STORE = 'syncOutbox'
/** The `syncMeta` row saying the outbox records (`SyncOutboxMarkSchema`). */
export const OUTBOX_MARK = 'outbox'
/** Tells the other tabs' connections that the outbox was turned on or off. */
const OUTBOX_CHANNEL = 'tabcode-sync-outbox'

const SYNCED_TABLES: ReadonlySet<string> = new Set(SyncTableSchema.options)

/** Whether this connection records writes; one per database connection. */
export interface OutboxSwitch {
  live: boolean
}

/** The outbox entry id of one row: a row written twice is one entry. */
export function outboxId(table: SyncTable, key: LocalKey): string {
  return `${table}\n${typeof key === 'string' ? key : key.join('\n')}`
}

const tabStamp = Math.random().toString(36).slice(2, 10)
let counter = 0
/** Differs for every write in every tab: a push clears an entry only if no write came after the one it read. */
const nextStamp = () => `${Date.now().toString(36)}.${tabStamp}.${(counter += 1).toString(36)}`

function keyOf(keyPath: string | string[] | null, value: unknown): LocalKey | undefined {
  const row = value as Record<string, unknown>
  if (typeof keyPath === 'string') return typeof row[keyPath] === 'string' ? (row[keyPath] as string) : undefined
  if (Array.isArray(keyPath) && keyPath.length === 2) {
    const [first, second] = keyPath.map((path) => row[path!])
    return typeof first === 'string' && typeof second === 'string' ? [first, second] : undefined
  }
  return undefined
}

function asLocalKey(key: unknown): LocalKey | undefined {
  if (typeof key === 'string') return key
  if (Array.isArray(key) && key.length === 2 && key.every((part) => typeof part === 'string')) return [key[0] as string, key[1] as string]
  return undefined
}

/** The entries a write of `table` makes: one per row it writes or deletes. */
function entriesOf(table: DBCoreTable, request: DBCoreMutateRequest | { type: 'delete'; keys: unknown[] }): SyncOutboxEntry[] {
  const name = table.name as SyncTable
  const keys: unknown[] = request.type === 'add' || request.type === 'put' ? request.values.map((value) => keyOf(table.schema.primaryKey.keyPath, value)) : request.type === 'delete' ? request.keys : []
  const entries: SyncOutboxEntry[] = []
  for (const key of keys.map(asLocalKey)) if (key !== undefined) entries.push({ id: outboxId(name, key), table: name, key, stamp: nextStamp() })
  return entries
}

/**
 * Adds `syncOutbox` to every read-write transaction over a synced table while `outbox.live`, and records each write of
 * those tables into it. Installed by `TabcodeDatabase`; a database opened at a version without the store is left alone.
 */
export function syncOutboxMiddleware(outbox: OutboxSwitch): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'syncOutbox',
    create(down) {
      const present = down.schema.tables.some((table) => table.name === OUTBOX_STORE)
      // Transactions opened while the outbox was on: only they may write to it (one opened before it was turned on
      // does not hold the store, and its writes are found by the full scan that follows turning it on).
      const widened = new WeakSet<DBCoreTransaction>()
      return {
        ...down,
        transaction(stores, mode, options) {
          if (!outbox.live || !present || mode !== 'readwrite' || !stores.some((store) => SYNCED_TABLES.has(store))) return down.transaction(stores, mode, options)
          const trans = down.transaction(stores.includes(OUTBOX_STORE) ? stores : [...stores, OUTBOX_STORE], mode, options)
          widened.add(trans)
          return trans
        },
        table(name) {
          const table = down.table(name)
          if (!present || !SYNCED_TABLES.has(name)) return table
          const log = down.table(OUTBOX_STORE)
          return {
            ...table,
            mutate(request) {
              if (!widened.has(request.trans)) return table.mutate(request)
              // Both writes are queued in the same tick, so they run in the write's own transaction (Dexie's zone for it
              // would not survive an await here). An add the store refuses leaves an entry for a row that did not
              // change: the push finds it unchanged and sends nothing.
              const both = (entries: SyncOutboxEntry[], write: () => Promise<DBCoreMutateResponse>) =>
                entries.length === 0 ? write() : Promise.all([log.mutate({ type: 'put', trans: request.trans, values: entries }), write()]).then(([, response]) => response)
              if (request.type !== 'deleteRange') return both(entriesOf(table, request), () => table.mutate(request))
              // A range delete names no keys: the keys it removes are read first.
              return table
                .query({ trans: request.trans, values: false, query: { index: table.schema.primaryKey, range: request.range } })
                .then((found) => both(entriesOf(table, { type: 'delete', keys: found.result }), () => table.mutate(request)))
            },
          }
        },
      }
    },
  }
}

/**
 * Listens for another tab's connection to the database `name` turning the outbox on or off; returns the way to tell
 * the others. A tab that was open when sync was set up starts recording within a message's hop; what it wrote in that
 * hop is found by the full scan the first push after setting up runs.
 */
export function watchOutboxSwitch(outbox: OutboxSwitch, name: string): (live: boolean) => void {
  if (typeof BroadcastChannel === 'undefined') return () => {}
  const channel = new BroadcastChannel(`${OUTBOX_CHANNEL}:${name}`)
  // Node (tests) would otherwise keep running for the channel.
  ;(channel as unknown as { unref?: () => void }).unref?.()
  channel.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'boolean') outbox.live = event.data
  }
  return (live) => channel.postMessage(live)
}
