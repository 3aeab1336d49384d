import type { Table } from 'dexie'
import { parseWith } from '../core/errors'
import { canonicalJson } from '../core/mcp'
import { MessageSchema, PartSchema, SessionInfoSchema, type Message, type Part, type SessionInfo } from '../core/schema'
import { SyncCheckpointSchema, SyncDocSchema, type SyncCheckpoint, type SyncDoc, type SyncKind } from '../core/sync-state'
import { isTerminalPart } from '../core/terminal-part'
import type { StoreContext } from './context'
import { read, write, type Announce } from './transaction'

/** One row sync carries, as it is stored here. */
export type SyncRow = { kind: 'session'; id: string; row: SessionInfo } | { kind: 'message'; id: string; row: Message } | { kind: 'part'; id: string; row: Part }

/**
 * A row the replicator has decided on: `row` to store (validated here), or none to delete it, and what this device
 * now has exchanged for it. `expected` is the canonical JSON of the local row the decision was made from (absent: no
 * row); if the row changed since, the change is skipped and the next round decides again, so a write the agent makes
 * while a pull runs is never overwritten.
 */
export interface SyncedChange {
  kind: SyncKind
  id: string
  row?: unknown
  expected?: string
  doc: SyncDoc
}

/** Every row that syncs today: sessions, messages, and parts once terminal (a streaming part stays here until it ends). */
export async function listSyncRows(context: StoreContext): Promise<SyncRow[]> {
  const { db } = context
  return await read(context, [db.sessions, db.messages, db.parts], async () => {
    const sessions = await db.sessions.toArray()
    const messages = await db.messages.toArray()
    const parts = await db.parts.toArray()
    return [
      ...sessions.map((row) => ({ kind: 'session' as const, id: row.id, row })),
      ...messages.map((row) => ({ kind: 'message' as const, id: row.id, row })),
      ...parts.filter(isTerminalPart).map((row) => ({ kind: 'part' as const, id: row.id, row })),
    ]
  })
}

/** The local row behind one document id, whatever its table, terminal or not. */
export async function readSyncRow(context: StoreContext, kind: SyncKind, id: string): Promise<unknown> {
  return await tableOf(context, kind).get(id)
}

/** What this device last exchanged, by row id: for the given ids (a pulled batch), or for every row. */
export async function readSyncDocs(context: StoreContext, ids?: readonly string[]): Promise<Map<string, SyncDoc>> {
  const docs = ids ? (await context.db.syncDocs.bulkGet([...ids])).filter((doc): doc is SyncDoc => doc !== undefined) : await context.db.syncDocs.toArray()
  return new Map(docs.map((doc) => [doc.id, doc]))
}

/** Records what the server accepted from this device (after it accepted it, so an interrupted push is sent again). */
export async function markSynced(context: StoreContext, docs: readonly SyncDoc[]): Promise<void> {
  const valid = docs.map((doc) => parseWith(SyncDocSchema, doc, 'sync document state'))
  await write(context, [context.db.syncDocs], async () => {
    await context.db.syncDocs.bulkPut(valid)
  })
}

/**
 * Stores rows pulled from the server and what was exchanged for them, in one transaction, and tells the tabs. A row
 * that fails its schema fails the whole batch before anything is written. Returns the ids it skipped because the
 * local row changed since the replicator read it.
 */
export async function applySyncedChanges(context: StoreContext, changes: readonly SyncedChange[]): Promise<string[]> {
  const { db } = context
  const checked = changes.map((change) => ({ ...change, row: change.row === undefined ? undefined : parseRow(change.kind, change.row), doc: parseWith(SyncDocSchema, change.doc, 'sync document state') }))
  return await write(context, [db.sessions, db.messages, db.parts, db.syncDocs], async (announce) => {
    const skipped: string[] = []
    for (const change of checked) {
      const table = tableOf(context, change.kind)
      const current = await table.get(change.id)
      const seen = current === undefined ? undefined : canonicalJson(current)
      if (seen !== change.expected) {
        skipped.push(change.id)
        continue
      }
      if (change.row === undefined) {
        if (current !== undefined) {
          await table.delete(change.id)
          announceRemoval(announce, change.kind, current)
        }
      } else {
        await table.put(change.row as never)
        announceRow(announce, change.kind, change.row, current === undefined)
      }
      await db.syncDocs.put(change.doc)
    }
    return skipped
  })
}

export async function readCheckpoint(context: StoreContext, key: string): Promise<SyncCheckpoint | undefined> {
  return await context.db.syncMeta.get(key)
}

export async function writeCheckpoint(context: StoreContext, checkpoint: SyncCheckpoint): Promise<void> {
  const valid = parseWith(SyncCheckpointSchema, checkpoint, 'sync checkpoint')
  await write(context, [context.db.syncMeta], async () => {
    await context.db.syncMeta.put(valid)
  })
}

function tableOf(context: StoreContext, kind: SyncKind): Table<unknown, string> {
  const { db } = context
  const tables = { session: db.sessions, message: db.messages, part: db.parts }
  return tables[kind] as unknown as Table<unknown, string>
}

function parseRow(kind: SyncKind, row: unknown): SessionInfo | Message | Part {
  if (kind === 'session') return parseWith(SessionInfoSchema, row, 'synced session')
  if (kind === 'message') return parseWith(MessageSchema, row, 'synced message')
  return parseWith(PartSchema, row, 'synced part')
}

function announceRow(announce: Announce, kind: SyncKind, row: unknown, created: boolean): void {
  if (kind === 'session') announce({ type: created ? 'session.created' : 'session.updated', info: row as SessionInfo })
  else if (kind === 'message') announce({ type: 'message.updated', info: row as Message })
  else announce({ type: 'part.updated', part: row as Part })
}

function announceRemoval(announce: Announce, kind: SyncKind, row: unknown): void {
  if (kind === 'session') announce({ type: 'session.deleted', info: row as SessionInfo })
  else if (kind === 'message') {
    const message = row as Message
    announce({ type: 'message.removed', sessionID: message.sessionID, messageID: message.id })
  } else {
    const part = row as Part
    announce({ type: 'part.removed', sessionID: part.sessionID, messageID: part.messageID, partID: part.id })
  }
}
