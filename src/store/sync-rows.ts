import type { Table } from 'dexie'
import type { ZodType } from 'zod'
import { parseWith } from '../core/errors'
import { canonicalJson } from '../core/mcp'
import { ProviderConfigSchema } from '../core/provider/schema'
import { ApprovalSchema, BlobSchema, MessageSchema, PartSchema, ProjectSchema, SessionInfoSchema, WorkspaceEntrySchema, type Message, type Part, type Project, type SessionInfo } from '../core/schema'
import { SettingSchema } from '../core/settings'
import {
  SyncCheckpointSchema,
  SyncDocSchema,
  type LocalKey,
  type SyncCheckpoint,
  type SyncDoc,
  type SyncKind,
  type SyncOutboxEntry,
  type SyncOutboxMark,
  type SyncTable,
} from '../core/sync-state'
import { isTerminalPart } from '../core/terminal-part'
import { projectApprovals } from './ask-store'
import type { StoreContext } from './context'
import { OUTBOX_MARK, outboxId } from './sync-outbox'
import { read, write, type Announce } from './transaction'

/** The table each kind of document lives in; blobs too, though the outbox does not watch them. */
const TABLE_OF: Record<SyncKind, SyncTable | 'blobs'> = {
  session: 'sessions',
  message: 'messages',
  part: 'parts',
  project: 'projects',
  file: 'files',
  blob: 'blobs',
  approval: 'approvals',
  setting: 'settings',
  provider: 'providers',
}
const KIND_OF = Object.fromEntries(Object.entries(TABLE_OF).map(([kind, table]) => [table, kind])) as Record<SyncTable, SyncKind>

/** One local row sync may carry, as it is stored here; `row` absent: it was deleted here. */
export interface SyncRow {
  kind: SyncKind
  key: LocalKey
  row?: unknown
}

/**
 * A row the replicator has decided on: `row` to store (validated here), or none to delete it, and what this device
 * now has exchanged for it. `key` is the row's key here (the document id when absent). `expected` is the canonical
 * JSON of the local row the decision was made from (absent: no row); if the row changed since, the change is skipped
 * and the next round decides again, so a write the agent makes while a pull runs is never overwritten. `settled`:
 * the row stored is what the server holds, so the outbox entry this write makes is dropped (nothing to send back).
 */
export interface SyncedChange {
  kind: SyncKind
  id: string
  key?: LocalKey
  row?: unknown
  expected?: string
  doc: SyncDoc
  settled?: boolean
}

function tableOf(context: StoreContext, kind: SyncKind): Table<unknown, unknown> {
  return context.db.table(TABLE_OF[kind]) as Table<unknown, unknown>
}

function keyOfRow(kind: SyncKind, row: Record<string, unknown>): LocalKey {
  if (kind === 'file') return [row.projectID as string, row.path as string]
  if (kind === 'blob') return row.hash as string
  if (kind === 'setting') return row.key as string
  return row.id as string
}

/**
 * Every row that may sync, for the first push after sync is set up (the outbox records only from then on): sessions,
 * messages, parts once terminal, projects, the stored workspaces' files, approvals, settings and providers. Which
 * settings travel, and without which secrets, the replicator decides.
 */
export async function listSyncRows(context: StoreContext): Promise<SyncRow[]> {
  const { db } = context
  return await read(context, [db.projects, db.sessions, db.messages, db.parts, db.files, db.approvals, db.settings, db.providers], async () => {
    const rows: SyncRow[] = []
    for (const kind of ['project', 'session', 'message', 'part', 'file', 'approval', 'setting', 'provider'] as const) {
      for (const row of (await tableOf(context, kind).toArray()) as Array<Record<string, unknown>>) {
        if (kind === 'part' && !isTerminalPart(row as unknown as Part)) continue
        rows.push({ kind, key: keyOfRow(kind, row), row })
      }
    }
    return rows
  })
}

/** What the outbox holds: the rows written since the last push, each with its row now (absent: deleted since). */
export async function readOutbox(context: StoreContext): Promise<Array<SyncRow & { entry: SyncOutboxEntry }>> {
  const { db } = context
  return await read(context, [db.syncOutbox, db.projects, db.sessions, db.messages, db.parts, db.files, db.approvals, db.settings, db.providers], async () => {
    const entries = await db.syncOutbox.toArray()
    const byTable = new Map<SyncTable, SyncOutboxEntry[]>()
    for (const entry of entries) byTable.set(entry.table, [...(byTable.get(entry.table) ?? []), entry])
    const found: Array<SyncRow & { entry: SyncOutboxEntry }> = []
    for (const [table, list] of byTable) {
      const rows = await db.table(table).bulkGet(list.map((entry) => entry.key))
      list.forEach((entry, index) => found.push({ entry, kind: KIND_OF[table], key: entry.key, row: rows[index] ?? undefined }))
    }
    return found
  })
}

/** How many rows wait in the outbox to be pushed (the indicator's pending count); counts keys only. */
export async function countOutbox(context: StoreContext): Promise<number> {
  return await context.db.syncOutbox.count()
}

/** The local row behind one document, whatever its table, terminal or not. */
export async function readSyncRow(context: StoreContext, kind: SyncKind, key: LocalKey): Promise<unknown> {
  return await tableOf(context, kind).get(key)
}

/** File contents by hash, for the blob documents a push sends with the files that hold them. */
export async function readSyncBlobs(context: StoreContext, hashes: readonly string[]): Promise<Array<unknown>> {
  return await context.db.blobs.bulkGet([...hashes])
}

/** What this device last exchanged, by document id: for the given ids (a pulled batch, a pushed batch), or for every row. */
export async function readSyncDocs(context: StoreContext, ids?: readonly string[]): Promise<Map<string, SyncDoc>> {
  const docs = ids ? (await context.db.syncDocs.bulkGet([...ids])).filter((doc): doc is SyncDoc => doc !== undefined) : await context.db.syncDocs.toArray()
  return new Map(docs.map((doc) => [doc.id, doc]))
}

/** What this device last exchanged for rows whose document ids are not their keys, found by their keys. */
export async function readSyncDocsByLocal(context: StoreContext, keys: readonly LocalKey[]): Promise<Map<string, SyncDoc>> {
  if (keys.length === 0) return new Map()
  const docs = await context.db.syncDocs.where('local').anyOf([...keys]).toArray()
  return new Map(docs.map((doc) => [outboxKeyText(doc.local!), doc]))
}

/** Whether this device holds any document whose id starts with `prefix` (one session's group: it has that session's messages). */
export async function holdsDocumentsUnder(context: StoreContext, prefix: string): Promise<boolean> {
  return (await context.db.syncDocs.where('id').startsWith(prefix).first()) !== undefined
}

/** A local key as one text, to look rows up by key. */
export function outboxKeyText(key: LocalKey): string {
  return typeof key === 'string' ? key : key.join('\n')
}

/**
 * Records what the server accepted from this device (after it accepted it, so an interrupted push is sent again), and
 * clears the outbox entries it sent unless the row was written again since they were read.
 */
export async function markSynced(context: StoreContext, docs: readonly SyncDoc[], sent: readonly SyncOutboxEntry[] = []): Promise<void> {
  const valid = docs.map((doc) => parseWith(SyncDocSchema, doc, 'sync document state'))
  const { db } = context
  await write(context, [db.syncDocs, db.syncOutbox], async () => {
    await db.syncDocs.bulkPut(valid)
    await clearSent(context, sent)
  })
}

/** Drops outbox entries a push passed over (a streaming part, a setting that stays here), unless written again since. */
export async function clearOutbox(context: StoreContext, sent: readonly SyncOutboxEntry[]): Promise<void> {
  if (sent.length === 0) return
  await write(context, [context.db.syncOutbox], async () => await clearSent(context, sent))
}

async function clearSent(context: StoreContext, sent: readonly SyncOutboxEntry[]): Promise<void> {
  if (sent.length === 0) return
  const { db } = context
  const now = await db.syncOutbox.bulkGet(sent.map((entry) => entry.id))
  const done = sent.filter((entry, index) => now[index]?.stamp === entry.stamp).map((entry) => entry.id)
  if (done.length) await db.syncOutbox.bulkDelete(done)
}

/**
 * Stores rows pulled from the server and what was exchanged for them, in one transaction, and tells the tabs. A row
 * that fails its schema fails the whole batch before anything is written. Returns the ids it skipped because the
 * local row changed since the replicator read it. A pulled file is a row write, as an import makes one: the tabs hear
 * `workspace.changed` for it.
 */
export async function applySyncedChanges(context: StoreContext, changes: readonly SyncedChange[]): Promise<string[]> {
  const { db } = context
  const checked = changes.map((change) => ({
    ...change,
    key: change.key ?? change.id,
    row: change.row === undefined ? undefined : parseRow(change.kind, change.row),
    doc: parseWith(SyncDocSchema, change.doc, 'sync document state'),
  }))
  const tables = [db.projects, db.sessions, db.messages, db.parts, db.files, db.blobs, db.approvals, db.settings, db.providers, db.syncDocs]
  return await write(context, db.outbox.live ? [...tables, db.syncOutbox] : tables, async (announce) => {
    const skipped: string[] = []
    const approvalProjects = new Set<string>()
    for (const change of checked) {
      const table = tableOf(context, change.kind)
      const current = await table.get(change.key)
      // A blob is its content: one already here is the same bytes, whatever was read before.
      if (change.kind === 'blob') {
        if (current === undefined && change.row !== undefined) await table.put(change.row)
        await db.syncDocs.put(change.doc)
        continue
      }
      const seen = current === undefined ? undefined : canonicalJson(current)
      if (seen !== change.expected) {
        skipped.push(change.id)
        continue
      }
      if (change.row === undefined) {
        if (current !== undefined) {
          await table.delete(change.key)
          announceRemoval(announce, change.kind, current, approvalProjects)
        }
      } else {
        await table.put(change.row)
        announceRow(announce, change.kind, change.row, current === undefined, approvalProjects)
      }
      await db.syncDocs.put(change.doc)
      // The write above put the row in the outbox; what the server holds needs no push back.
      const watched = TABLE_OF[change.kind]
      if (change.settled && db.outbox.live && watched !== 'blobs') await db.syncOutbox.delete(outboxId(watched, change.key))
    }
    for (const projectID of approvalProjects) announce({ type: 'approval.updated', projectID, approvals: await projectApprovals(context, projectID) })
    return skipped
  })
}

/** The checkpoint of one server and scope; undefined when there is none (or the key names the outbox's mark). */
export async function readCheckpoint(context: StoreContext, key: string): Promise<SyncCheckpoint | undefined> {
  const row = await context.db.syncMeta.get(key)
  return row?.type === 'checkpoint' ? row : undefined
}

export async function writeCheckpoint(context: StoreContext, checkpoint: SyncCheckpoint): Promise<void> {
  const valid = parseWith(SyncCheckpointSchema, checkpoint, 'sync checkpoint')
  await write(context, [context.db.syncMeta], async () => {
    await context.db.syncMeta.put(valid)
  })
}

/** The outbox's state here: off (undefined), recording but not yet through its first full push, or recording. */
export async function readOutboxMark(context: StoreContext): Promise<SyncOutboxMark | undefined> {
  const row = await context.db.syncMeta.get(OUTBOX_MARK)
  return row?.type === 'outbox' ? row : undefined
}

/**
 * Turns the outbox on (sync set up: every later write is recorded, in every tab, and the next push reads every row
 * once) or off (sync turned off: nothing is recorded and what was waiting is dropped; setting sync up again starts
 * with a full scan). Turning it on again asks for another full scan: what travels changed (the secrets choice).
 */
export async function setOutboxRecording(context: StoreContext, live: boolean): Promise<void> {
  const { db } = context
  // Off at once; on once the mark is stored (the database may open on this write, reading the mark as it was). A
  // write in between is found by the full scan the mark asks for.
  if (!live) db.outbox.live = false
  await write(context, [db.syncMeta, db.syncOutbox], async () => {
    const mark: SyncOutboxMark = { type: 'outbox', key: OUTBOX_MARK, since: context.now(), scanned: false }
    if (live) await db.syncMeta.put(mark)
    else {
      await db.syncMeta.delete(OUTBOX_MARK)
      await db.syncOutbox.clear()
    }
  })
  db.outbox.live = live
  db.announceOutbox(live)
}

/** The first full push after recording began is done: from now on the outbox alone says what changed. */
export async function markOutboxScanned(context: StoreContext): Promise<void> {
  const { db } = context
  await write(context, [db.syncMeta], async () => {
    const mark = await db.syncMeta.get(OUTBOX_MARK)
    if (mark?.type !== 'outbox') return
    const scanned: SyncOutboxMark = { ...mark, scanned: true }
    await db.syncMeta.put(scanned)
  })
}

/** The schema each kind's pulled row must parse with, and the words its error uses. */
const SCHEMA_OF: { [K in SyncKind]: readonly [ZodType, string] } = {
  session: [SessionInfoSchema, 'synced session'],
  message: [MessageSchema, 'synced message'],
  part: [PartSchema, 'synced part'],
  project: [ProjectSchema, 'synced project'],
  file: [WorkspaceEntrySchema, 'synced file'],
  blob: [BlobSchema, 'synced file content'],
  approval: [ApprovalSchema, 'synced approval'],
  setting: [SettingSchema, 'synced setting'],
  provider: [ProviderConfigSchema, 'synced provider'],
}

function parseRow(kind: SyncKind, row: unknown): unknown {
  const [schema, what] = SCHEMA_OF[kind]
  return parseWith(schema, row, what)
}

function announceRow(announce: Announce, kind: SyncKind, row: unknown, created: boolean, approvalProjects: Set<string>): void {
  const record = row as Record<string, unknown>
  if (kind === 'session') announce({ type: created ? 'session.created' : 'session.updated', info: row as SessionInfo })
  else if (kind === 'message') announce({ type: 'message.updated', info: row as Message })
  else if (kind === 'part') announce({ type: 'part.updated', part: row as Part })
  else if (kind === 'project') announce({ type: 'project.updated', info: row as Project })
  else if (kind === 'file') announce({ type: 'workspace.changed', projectID: record.projectID as string, change: { type: record.type === 'directory' ? 'mkdir' : 'write', path: record.path as string } })
  else if (kind === 'approval') approvalProjects.add(record.projectID as string)
}

function announceRemoval(announce: Announce, kind: SyncKind, row: unknown, approvalProjects: Set<string>): void {
  const record = row as Record<string, unknown>
  if (kind === 'session') announce({ type: 'session.deleted', info: row as SessionInfo })
  else if (kind === 'message') {
    const message = row as Message
    announce({ type: 'message.removed', sessionID: message.sessionID, messageID: message.id })
  } else if (kind === 'part') {
    const part = row as Part
    announce({ type: 'part.removed', sessionID: part.sessionID, messageID: part.messageID, partID: part.id })
  } else if (kind === 'file') announce({ type: 'workspace.changed', projectID: record.projectID as string, change: { type: 'remove', path: record.path as string } })
  else if (kind === 'approval') approvalProjects.add(record.projectID as string)
}
