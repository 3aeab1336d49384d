import { parseWith, ValidationError } from '../core/errors'
import { canonicalJson } from '../core/mcp'
import type { SyncDoc, SyncKind } from '../core/sync-state'
import type { StoreContext } from '../store/context'
import { applySyncedChanges, listSyncRows, markSynced, readCheckpoint, readSyncDocs, readSyncRow, writeCheckpoint, type SyncedChange } from '../store/sync-rows'
import type { CouchDatabase } from './couch'
import { deriveKey, makeKeyCheck, newKeyParameters, open, seal, sha256, verifyKeyCheck, MINIMUM_ITERATIONS, PBKDF2_ITERATIONS, SyncKeyCheckError } from './crypto'
import { mergeRows } from './merge'
import { KEY_CHECK_ID, KeyCheckDocumentSchema, RevisionsSchema, RowDocumentSchema, type RowDocument } from './protocol'

/*
 * Replication between our own tables and a CouchDB-protocol database (docs/sync.md). PouchDB would replicate into a
 * database of its own, a second full copy of the history beside Dexie's; this speaks the protocol directly and keeps
 * per row only the revision last exchanged and a digest (`syncDocs`).
 *
 * Revisions are chosen here and sent with `new_edits: false`, so both sides keep the same ones: `<n>-<first 32 hex
 * of SHA-256 of the row's canonical JSON>`. The same content written on two devices is the same revision, which
 * makes a resumed push, or two devices resolving one conflict alike, write nothing twice.
 */

const BATCH = 100

export interface SyncKey {
  key: CryptoKey
}

/**
 * Opens a sync database with a passphrase: the first device sets the database up (salt, key check); every other
 * device must pass the key check, or `SyncPassphraseError` stops it before it reads or writes a row. The database
 * must exist (`CouchDatabase.probe` and `createDatabase`: creating one is the user's choice).
 */
export async function unlock(server: CouchDatabase, passphrase: string): Promise<SyncKey> {
  let stored = await server.get(KEY_CHECK_ID)
  if (stored === undefined) {
    const parameters = newKeyParameters(PBKDF2_ITERATIONS)
    const key = await deriveKey(passphrase, parameters)
    const check = await makeKeyCheck(key, KEY_CHECK_ID)
    const [result] = await server.bulkDocs([{ _id: KEY_CHECK_ID, type: 'keycheck', ...parameters, ...check }], true)
    // Another device set the database up at the same moment: its key check is the one, read it.
    if (!result?.error) return { key }
    stored = await server.get(KEY_CHECK_ID)
  }
  const document = parseWith(KeyCheckDocumentSchema, stored, 'sync key check')
  // A server that lowered the count would make the key check cheap to guess against: refuse it.
  if (document.iterations < MINIMUM_ITERATIONS) throw new SyncKeyCheckError(document.iterations)
  const key = await deriveKey(passphrase, document)
  await verifyKeyCheck(key, KEY_CHECK_ID, document)
  return { key }
}

export interface ReplicateOptions {
  context: StoreContext
  server: CouchDatabase
  key: SyncKey
  /** Names this device's checkpoint on the server; stable across reloads. */
  device: string
  batch?: number
  /*
   * Issue 31's agreed options, declared here for the worker's sync service; the replication work implements them:
   * `signal` ends a round, `onProgress` reports it, `scope` narrows what a round carries (`sessions`: the list without
   * messages and parts; `session`: one session's), `secrets` lets provider keys and MCP tokens travel.
   */
  signal?: AbortSignal
  onProgress?: (progress: { phase: 'pull' | 'push'; done: number; total: number }) => void
  scope?: { type: 'all' } | { type: 'sessions' } | { type: 'session'; sessionID: string }
  secrets?: boolean
}

export interface ReplicateResult {
  pulled: number
  pushed: number
}

/** One round: everything new on the server comes in, then everything changed here goes out. */
export async function replicate(options: ReplicateOptions): Promise<ReplicateResult> {
  const pulled = await pull(options)
  const pushed = await push(options)
  return { pulled, pushed }
}

async function digestOf(row: unknown): Promise<string> {
  return (await sha256(canonicalJson(row))).slice(0, 32)
}

const generation = (rev: string) => Number.parseInt(rev.split('-')[0] ?? '0', 10) || 0
const hashOf = (rev: string) => rev.slice(rev.indexOf('-') + 1)

/** CouchDB's winner among leaves: the highest generation, then the greatest revision text. */
function winnerOf(revs: readonly string[]): string {
  return [...revs].sort((left, right) => generation(right) - generation(left) || (left < right ? 1 : left > right ? -1 : 0))[0]!
}

async function pull(options: ReplicateOptions): Promise<number> {
  const { context, server } = options
  const limit = options.batch ?? BATCH
  const checkpointId = `tabcode-${(await sha256(`${options.device}\n${server.base}`)).slice(0, 24)}`
  const local = await readCheckpoint(context, checkpointId)
  const remote = await server.getLocal(checkpointId)
  // Both sides must agree on where this device stopped; if not (a reset server, a restored profile), start over:
  // applying a revision already held changes nothing.
  let since = local && remote && local.since === remote.since ? local.since : '0'
  let pulled = 0
  for (;;) {
    const changes = await server.changes(since, limit)
    if (changes.results.length === 0) break
    const wanted = changes.results.filter((change) => !change.id.startsWith('tabcode:') && !change.id.startsWith('_design/'))
    const docs = await readSyncDocs(context, wanted.map((change) => change.id))
    // Our own push coming back, or a revision already taken: nothing to fetch.
    const fresh = wanted.filter((change) => !(change.changes.length === 1 && docs.get(change.id)?.rev === change.changes[0]!.rev && !docs.get(change.id)?.losers))
    const fetched = await server.bulkGet(
      fresh.flatMap((change) => change.changes.map(({ rev }) => ({ id: change.id, rev }))),
      { revs: true },
    )
    const byId = new Map<string, RowDocument[]>()
    for (const raw of fetched) {
      const document = parseWith(RowDocumentSchema, raw, 'sync document')
      byId.set(document._id, [...(byId.get(document._id) ?? []), document])
    }
    const decided: SyncedChange[] = []
    for (const [id, leaves] of byId) decided.push(await decide(options, id, leaves, docs.get(id)))
    // Everything of the batch is decrypted and checked before anything is written: a bad document writes nothing.
    await applySyncedChanges(context, decided)
    pulled += decided.length
    since = String(changes.last_seq)
    await writeCheckpoint(context, { type: 'checkpoint', key: checkpointId, since })
    await server.putLocal(checkpointId, since)
    if (changes.results.length < limit) break
  }
  return pulled
}

/** A leaf's ancestry, newest first, as full revisions; just the leaf when the server sent none. */
function historyOf(leaf: RowDocument): string[] {
  const parsed = RevisionsSchema.safeParse((leaf as Record<string, unknown>)._revisions)
  if (!parsed.success) return [leaf._rev]
  return parsed.data.ids.map((hash, index) => `${parsed.data.start - index}-${hash}`)
}

/**
 * What to store for one document given its leaf revisions on the server and this device's own row. Versions that
 * differ (server leaves in conflict, or a row changed here while another device changed it there) are merged from
 * the newest revision they all descend from, so a field only one side changed keeps that change (`merge.ts`).
 */
async function decide(options: ReplicateOptions, id: string, leaves: readonly RowDocument[], known: SyncDoc | undefined): Promise<SyncedChange> {
  const { context, server, key } = options
  const live = leaves.filter((leaf) => leaf._deleted !== true)
  const kind = live[0]?.kind ?? leaves.find((leaf) => leaf.kind)?.kind ?? known?.kind
  if (!kind) throw new ValidationError('sync document', `${id} names no kind of row`)
  const current = await readSyncRow(context, kind, id)
  const expected = current === undefined ? undefined : canonicalJson(current)
  const changedHere = current !== undefined && (known?.digest === undefined || (await digestOf(current)) !== known.digest)
  if (live.length === 0) {
    // Deleted everywhere on the server: a tombstone has no content to merge, so the row goes here too.
    const rev = winnerOf(leaves.map((leaf) => leaf._rev))
    return { kind, id, expected, doc: { type: 'synced', id, kind, rev } }
  }
  const decrypt = async (document: RowDocument) => JSON.parse(await open(key.key, id, document as { iv: string; data: string })) as unknown
  const rows = await Promise.all(live.map(async (leaf) => ({ rev: leaf._rev, row: await decrypt(leaf) })))
  const winner = winnerOf(rows.map((entry) => entry.rev))
  const winnerRow = rows.find((entry) => entry.rev === winner)!.row
  const histories = live.map(historyOf)
  if (changedHere) histories.push((known && histories.map((history) => history.slice(history.indexOf(known.rev))).find((history) => history[0] === known.rev)) ?? (known ? [known.rev] : []))
  const versions = [...rows.map((entry) => entry.row), ...(changedHere ? [current] : [])]
  let merged = winnerRow
  if (versions.length > 1) {
    const baseRev = histories[0]!.find((rev) => histories.every((history) => history.includes(rev)))
    const [base] = baseRev ? await server.bulkGet([{ id, rev: baseRev }]) : []
    const parsedBase = base && RowDocumentSchema.safeParse(base)
    const baseRow = parsedBase?.success && parsedBase.data._deleted !== true ? await decrypt(parsedBase.data) : undefined
    merged = mergeRows(kind, baseRow, versions)
  }
  const losers = rows.map((entry) => entry.rev).filter((rev) => rev !== winner)
  // The digest is the winner's: if the merged row differs, the next push sends it as the winner's child.
  const doc: SyncDoc = { type: 'synced', id, kind, rev: winner, digest: await digestOf(winnerRow), ...(losers.length ? { losers } : {}) }
  return { kind, id, row: merged, expected, doc }
}

async function push(options: ReplicateOptions): Promise<number> {
  const { context, server, key } = options
  const limit = options.batch ?? BATCH
  const docs = await readSyncDocs(context)
  const rows = await listSyncRows(context)
  const present = new Set(rows.map((row) => row.id))
  const outgoing: Array<{ document: Record<string, unknown>; synced: SyncDoc }> = []
  for (const { kind, id, row } of rows) {
    const known = docs.get(id)
    const digest = await digestOf(row)
    const losers = known?.losers ?? []
    let rev = known?.rev
    if (known?.digest !== digest) {
      const next = `${(rev ? generation(rev) : 0) + 1}-${digest}`
      const sealed = await seal(key.key, id, canonicalJson(row))
      outgoing.push({ document: { _id: id, _rev: next, _revisions: revisions(next, rev), kind, ...sealed }, synced: { type: 'synced', id, kind, rev: next, digest } })
      rev = next
    }
    for (const loser of losers) outgoing.push({ document: await tombstone(id, kind, loser), synced: { type: 'synced', id, kind, rev: rev!, digest } })
  }
  // Rows deleted here since they were last exchanged.
  for (const known of docs.values()) {
    if (present.has(known.id) || known.digest === undefined) continue
    const document = await tombstone(known.id, known.kind, known.rev)
    outgoing.push({ document, synced: { type: 'synced', id: known.id, kind: known.kind, rev: document._rev as string } })
  }
  let pushed = 0
  for (let start = 0; start < outgoing.length; start += limit) {
    const batch = outgoing.slice(start, start + limit)
    const asked: Record<string, string[]> = {}
    for (const { document } of batch) asked[document._id as string] = [...(asked[document._id as string] ?? []), document._rev as string]
    const missing = await server.revsDiff(asked)
    // A revision the server already holds (a push cut off after the server took it) is not sent twice.
    const send = batch.filter(({ document }) => missing.get(document._id as string)?.has(document._rev as string))
    await server.bulkDocs(send.map(({ document }) => document), false)
    // Last write per id wins: a row's content revision comes before the tombstones of its losers, all naming the same state.
    await markSynced(context, [...new Map(batch.map(({ synced }) => [synced.id, synced])).values()])
    pushed += send.length
  }
  return pushed
}

/** A deletion of `parent`, with a revision every device computes alike. */
async function tombstone(id: string, kind: SyncKind, parent: string): Promise<Record<string, unknown>> {
  const rev = `${generation(parent) + 1}-${(await sha256(`deleted\n${parent}`)).slice(0, 32)}`
  return { _id: id, _rev: rev, _deleted: true, _revisions: revisions(rev, parent), kind }
}

function revisions(rev: string, parent: string | undefined): { start: number; ids: string[] } {
  return { start: generation(rev), ids: [hashOf(rev), ...(parent ? [hashOf(parent)] : [])] }
}
