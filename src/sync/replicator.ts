import { parseWith, ValidationError } from '../core/errors'
import { canonicalJson } from '../core/mcp'
import type { LocalKey, SyncDoc, SyncKind, SyncOutboxEntry } from '../core/sync-state'
import type { StoreContext } from '../store/context'
import {
  applySyncedChanges,
  clearOutbox,
  holdsDocumentsUnder,
  listSyncRows,
  markOutboxScanned,
  markSynced,
  outboxKeyText,
  readCheckpoint,
  readOutbox,
  readOutboxMark,
  readSyncBlobs,
  readSyncDocs,
  readSyncDocsByLocal,
  readSyncRow,
  setOutboxRecording,
  writeCheckpoint,
  type SyncedChange,
  type SyncRow,
} from '../store/sync-rows'
import type { CouchDatabase } from './couch'
import { deriveKeys, keyedHash, makeKeyCheck, newKeyParameters, open, seal, sha256, verifyKeyCheck, MINIMUM_ITERATIONS, PBKDF2_ITERATIONS, SyncKeyCheckError } from './crypto'
import { acceptsSetting, blobOf, documentId, groupOf, GROUP_PREFIX, incoming, outgoing, travels } from './documents'
import { mergeRows } from './merge'
import { KEY_CHECK_ID, KeyCheckDocumentSchema, RevisionsSchema, RowDocumentSchema, type Changes, type RowDocument } from './protocol'

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
  /** Seals every document's content (AES-GCM). */
  key: CryptoKey
  /** Names documents and revisions (HMAC-SHA-256): ids and revisions say nothing a guess could be checked against. */
  ids: CryptoKey
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
    const keys = await deriveKeys(passphrase, parameters)
    const check = await makeKeyCheck(keys.content, KEY_CHECK_ID)
    const [result] = await server.bulkDocs([{ _id: KEY_CHECK_ID, type: 'keycheck', ...parameters, ...check }], true)
    // Another device set the database up at the same moment: its key check is the one, read it.
    if (!result?.error) return { key: keys.content, ids: keys.ids }
    stored = await server.get(KEY_CHECK_ID)
  }
  const document = parseWith(KeyCheckDocumentSchema, stored, 'sync key check')
  // A server that lowered the count would make the key check cheap to guess against: refuse it.
  if (document.iterations < MINIMUM_ITERATIONS) throw new SyncKeyCheckError(document.iterations)
  const keys = await deriveKeys(passphrase, document)
  await verifyKeyCheck(keys.content, KEY_CHECK_ID, document)
  return { key: keys.content, ids: keys.ids }
}

/** Which documents a pull takes: everything, the session list without messages and parts, or one session's messages and parts. */
export type SyncScope = { type: 'all' } | { type: 'sessions' } | { type: 'session'; sessionID: string }

export interface SyncProgress {
  phase: 'pull' | 'push'
  done: number
  total: number
}

export interface ReplicateOptions {
  context: StoreContext
  server: CouchDatabase
  key: SyncKey
  /** Names this device's checkpoint on the server; stable across reloads. */
  device: string
  batch?: number
  /** Stops the round between batches (an `AbortError`); every batch written has its checkpoint, so the next round resumes. */
  signal?: AbortSignal
  /** After each batch: how far the pull (`_changes`'s `pending` where the server says it) or the push (the rows waiting) is. */
  onProgress?: (progress: SyncProgress) => void
  /**
   * `all` (the default) pulls everything; `sessions` (a device that fetches messages on demand) pulls everything but
   * the messages and parts of sessions it has not fetched, with a checkpoint of its own; `session` fetches one session's
   * messages and parts, all of them, whatever the checkpoints passed over. Every scope pushes everything changed here.
   */
  scope?: SyncScope
  /** Provider keys, MCP header values and sign-ins, and git tokens travel (encrypted) only when true. */
  secrets?: boolean
}

export interface ReplicateResult {
  pulled: number
  pushed: number
}

/** One round: everything new on the server (in scope) comes in, then everything changed here goes out. */
export async function replicate(options: ReplicateOptions): Promise<ReplicateResult> {
  // From here on every local write is recorded for the push, so none made while this round runs is missed.
  if ((await readOutboxMark(options.context)) === undefined) await setOutboxRecording(options.context, true)
  const scope = options.scope ?? { type: 'all' }
  const pulled = scope.type === 'session' ? await fetchSession(options, scope.sessionID) : await pull(options, scope.type === 'sessions')
  const pushed = await push(options)
  return { pulled, pushed }
}

/**
 * The revision digest of a row's content: a keyed hash (the id key) of its canonical JSON, so the same content gets
 * the same revision on every device with the passphrase, and the server, which sees revisions, cannot test a guess of
 * a row's content against it.
 */
async function digestOf(key: SyncKey, row: unknown): Promise<string> {
  return await keyedHash(key.ids, `revision\n${canonicalJson(row)}`)
}

const generation = (rev: string) => Number.parseInt(rev.split('-')[0] ?? '0', 10) || 0
const hashOf = (rev: string) => rev.slice(rev.indexOf('-') + 1)

/** CouchDB's winner among leaves: the highest generation, then the greatest revision text. */
function winnerOf(revs: readonly string[]): string {
  return [...revs].sort((left, right) => generation(right) - generation(left) || (left < right ? 1 : left > right ? -1 : 0))[0]!
}

/** A row's key in its own table, from its content. */
function localKeyOf(kind: SyncKind, row: Record<string, unknown>): LocalKey {
  if (kind === 'file') return [row.projectID as string, row.path as string]
  if (kind === 'blob') return row.hash as string
  if (kind === 'setting') return row.key as string
  return row.id as string
}

async function pull(options: ReplicateOptions, sessionsOnly: boolean): Promise<number> {
  const { context, server } = options
  const limit = options.batch ?? BATCH
  // The session-list pull passes over messages and parts, so it keeps its own checkpoint: a later pull of everything
  // starts from its own and takes them.
  const checkpointId = `tabcode-${(await sha256(`${options.device}\n${server.base}`)).slice(0, 24)}${sessionsOnly ? '-sessions' : ''}`
  const local = await readCheckpoint(context, checkpointId)
  const remote = await server.getLocal(checkpointId)
  // Both sides must agree on where this device stopped; if not (a reset server, a restored profile), start over:
  // applying a revision already held changes nothing.
  let since = local && remote && local.since === remote.since ? local.since : '0'
  let pulled = 0
  let seen = 0
  // Per round: whether this device has fetched a session (it holds documents of its group).
  const fetched = new Map<string, boolean>()
  for (;;) {
    options.signal?.throwIfAborted()
    const changes = await server.changes(since, limit)
    if (changes.results.length === 0) break
    let results = changes.results
    if (sessionsOnly) {
      results = []
      for (const change of changes.results) {
        if (!change.id.startsWith(GROUP_PREFIX)) {
          results.push(change)
          continue
        }
        const group = change.id.slice(0, change.id.indexOf(':') + 1)
        if (!fetched.has(group)) fetched.set(group, await holdsDocumentsUnder(context, group))
        if (fetched.get(group)) results.push(change)
      }
    }
    pulled += await take(options, results)
    since = String(changes.last_seq)
    await writeCheckpoint(context, { type: 'checkpoint', key: checkpointId, since })
    await server.putLocal(checkpointId, since)
    seen += changes.results.length
    options.onProgress?.({ phase: 'pull', done: seen, total: seen + (changes.pending ?? 0) })
    if (changes.results.length < limit) break
  }
  return pulled
}

/**
 * Every message and part of one session, fetched on demand: its group's documents listed by key range (so documents a
 * session-list pull passed over are found), then taken like a pull's. From then on the session-list pull takes the
 * group's new documents too.
 */
async function fetchSession(options: ReplicateOptions, sessionID: string): Promise<number> {
  const { server } = options
  const limit = options.batch ?? BATCH
  const group = `${await groupOf(options.key.ids, sessionID)}:`
  let after: string | undefined
  let pulled = 0
  let seen = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const ids = await server.idsInRange(group, `${group}\ufff0`, limit, after)
    if (ids.length === 0) break
    pulled += await take(options, (await server.changesOf(ids)).results)
    seen += ids.length
    options.onProgress?.({ phase: 'pull', done: seen, total: seen })
    after = ids[ids.length - 1]
    if (ids.length < limit) break
  }
  return pulled
}

/** Fetches, decides and stores one batch of changes; returns how many rows it stored. */
async function take(options: ReplicateOptions, changes: Changes['results']): Promise<number> {
  const { context, server } = options
  const wanted = changes.filter((change) => !change.id.startsWith('tabcode:') && !change.id.startsWith('_design/'))
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
  for (const [id, leaves] of byId) {
    const change = await decide(options, id, leaves, docs.get(id))
    if (change) decided.push(change)
  }
  // Everything of the batch is decrypted and checked before anything is written: a bad document writes nothing.
  await applySyncedChanges(context, decided)
  return decided.length
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
 * the newest revision they all descend from, so a field only one side changed keeps that change (`merge.ts`). Rows are
 * compared and merged as they travel (`outgoing`: without the secrets that stay here), then stored with them
 * (`incoming`). Undefined: nothing to store (a setting this device does not take).
 */
async function decide(options: ReplicateOptions, id: string, leaves: readonly RowDocument[], known: SyncDoc | undefined): Promise<SyncedChange | undefined> {
  const { context, server, key } = options
  const secrets = options.secrets ?? false
  const live = leaves.filter((leaf) => leaf._deleted !== true)
  const kind = live[0]?.kind ?? leaves.find((leaf) => leaf.kind)?.kind ?? known?.kind
  if (!kind) throw new ValidationError('sync document', `${id} names no kind of row`)
  const decrypt = async (document: RowDocument) => JSON.parse(await open(key.key, id, document as { iv: string; data: string })) as unknown
  const rows = await Promise.all(live.map(async (leaf) => ({ rev: leaf._rev, row: await decrypt(leaf) })))
  const localKey = rows[0] ? localKeyOf(kind, rows[0].row as Record<string, unknown>) : (known?.local ?? id)
  const local = canonicalJson(localKey) === canonicalJson(id) ? {} : { local: localKey }
  if (kind === 'setting' && !acceptsSetting(localKey as string, secrets)) return undefined
  // A blob is named by its content: there is nothing to merge, and a deletion of shared content is not followed (a
  // file here may still hold it).
  if (kind === 'blob') {
    const winner = rows[0]
    if (!winner) return undefined
    return { kind, id, key: localKey, row: incoming(kind, winner.row, undefined), doc: { type: 'synced', id, kind, rev: winner.rev, digest: hashOf(winner.rev), ...local }, settled: true }
  }
  const current = await readSyncRow(context, kind, localKey)
  const expected = current === undefined ? undefined : canonicalJson(current)
  const travelling = current === undefined ? undefined : outgoing(kind, current, secrets)
  const changedHere = travelling !== undefined && (known?.digest === undefined || (await digestOf(key, travelling)) !== known.digest)
  if (live.length === 0) {
    // Deleted everywhere on the server: a tombstone has no content to merge, so the row goes here too.
    const rev = winnerOf(leaves.map((leaf) => leaf._rev))
    return { kind, id, key: localKey, expected, doc: { type: 'synced', id, kind, rev, ...local }, settled: true }
  }
  const winner = winnerOf(rows.map((entry) => entry.rev))
  const winnerRow = rows.find((entry) => entry.rev === winner)!.row
  const histories = live.map(historyOf)
  if (changedHere) histories.push((known && histories.map((history) => history.slice(history.indexOf(known.rev))).find((history) => history[0] === known.rev)) ?? (known ? [known.rev] : []))
  const versions = [...rows.map((entry) => entry.row), ...(changedHere ? [travelling] : [])]
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
  const doc: SyncDoc = { type: 'synced', id, kind, rev: winner, digest: await digestOf(key, winnerRow), ...(losers.length ? { losers } : {}), ...local }
  const settled = losers.length === 0 && canonicalJson(merged) === canonicalJson(winnerRow)
  return { kind, id, key: localKey, row: incoming(kind, merged, current), expected, doc, settled }
}

/** One document a push may send; it is sealed only once the server says it lacks the revision. */
interface Outgoing {
  id: string
  kind: SyncKind
  rev: string
  parent: string | undefined
  /** The content to seal; absent for a tombstone. */
  content?: () => Promise<unknown>
  synced: SyncDoc
}

async function push(options: ReplicateOptions): Promise<number> {
  const { context, server, key } = options
  const limit = options.batch ?? BATCH
  const secrets = options.secrets ?? false
  const mark = await readOutboxMark(context)
  // Until the first full push after recording began, every row is read once; then the outbox alone says what changed.
  const scanning = !mark?.scanned
  const candidates: Array<SyncRow & { entry?: SyncOutboxEntry }> = scanning ? [...(await listSyncRows(context)), ...(await readOutbox(context))] : await readOutbox(context)
  const entries = candidates.flatMap((candidate) => (candidate.entry ? [candidate.entry] : []))

  // Document ids: from the key, or (a message or part) from the row; a deleted message or part by its key's record.
  const ids = await Promise.all(candidates.map(async (candidate) => await documentId(key.ids, candidate.kind, candidate.key, candidate.row)))
  const orphans = candidates.filter((_, index) => ids[index] === undefined)
  const byLocal = await readSyncDocsByLocal(context, orphans.map((candidate) => candidate.key))
  const blobKeys = [...new Set(candidates.flatMap((candidate) => (candidate.row === undefined ? [] : [blobOf(candidate.kind, candidate.row)].filter((hash): hash is string => hash !== undefined))))]
  const blobIds = new Map(await Promise.all(blobKeys.map(async (hash) => [hash, (await documentId(key.ids, 'blob', hash))!] as const)))
  const docIds = candidates.map((candidate, index) => ids[index] ?? byLocal.get(outboxKeyText(candidate.key))?.id)
  const docs = scanning ? await readSyncDocs(context) : await readSyncDocs(context, [...docIds.filter((id): id is string => id !== undefined), ...blobIds.values()])

  // A folder-on-disk project's files are that machine's folder: its row travels, its files never do.
  const projectIDs = [...new Set(candidates.flatMap((candidate) => (candidate.kind === 'file' ? [(candidate.key as [string, string])[0]] : [])))]
  const onDisk = new Set<string>()
  for (const projectID of projectIDs) if (((await readSyncRow(context, 'project', projectID)) as { origin?: { type: string } } | undefined)?.origin?.type === 'disk') onDisk.add(projectID)

  const outgoingDocs = new Map<string, Outgoing>()
  const add = (entry: Outgoing) => outgoingDocs.set(`${entry.id}\n${entry.rev}`, entry)
  const present = new Set<string>()
  for (const [index, candidate] of candidates.entries()) {
    const id = docIds[index]
    if (id === undefined || (candidate.kind === 'file' && onDisk.has((candidate.key as [string, string])[0]))) continue
    const known = docs.get(id)
    const { kind, row } = candidate
    const local = canonicalJson(candidate.key) === canonicalJson(id) ? {} : { local: candidate.key }
    if (row !== undefined && travels(kind, candidate.key, row, secrets)) {
      present.add(id)
      const hash = blobOf(kind, row)
      const blobId = hash === undefined ? undefined : blobIds.get(hash)!
      if (hash !== undefined && blobId !== undefined && !docs.has(blobId) && !outgoingDocs.has(`${blobId}\n1-${await blobDigest(key, hash)}`)) {
        // The content goes before the file that holds it, so a device never takes a file whose content is not there.
        const rev = `1-${await blobDigest(key, hash)}`
        add({ id: blobId, kind: 'blob', rev, parent: undefined, content: async () => {
            const [blob] = await readSyncBlobs(context, [hash])
            return blob === undefined ? undefined : outgoing('blob', blob, secrets)
          }, synced: { type: 'synced', id: blobId, kind: 'blob', rev, digest: hashOf(rev), local: hash } })
      }
      const travelling = outgoing(kind, row, secrets)
      const digest = await digestOf(key, travelling)
      let rev = known?.rev
      if (known?.digest !== digest) {
        const next = `${(rev ? generation(rev) : 0) + 1}-${digest}`
        add({ id, kind, rev: next, parent: rev, content: async () => travelling, synced: { type: 'synced', id, kind, rev: next, digest, ...local } })
        rev = next
      }
      for (const loser of known?.losers ?? []) add(await tombstone(id, kind, loser, { type: 'synced', id, kind, rev: rev!, digest, ...local }))
    } else if (known?.digest !== undefined && (row === undefined || kind === 'setting')) {
      // Deleted here since it was last exchanged (or a setting that no longer travels: the secrets choice changed).
      const gone = await tombstone(id, known.kind, known.rev, { type: 'synced', id, kind: known.kind, rev: '', ...local })
      add({ ...gone, synced: { ...gone.synced, rev: gone.rev } })
    }
  }
  if (scanning) {
    // Rows deleted while nothing recorded (sync was off here): every document exchanged whose row is gone. Blobs stay.
    for (const known of docs.values()) {
      if (present.has(known.id) || known.digest === undefined || known.kind === 'blob') continue
      const gone = await tombstone(known.id, known.kind, known.rev, { type: 'synced', id: known.id, kind: known.kind, rev: '', ...(known.local ? { local: known.local } : {}) })
      if (!outgoingDocs.has(`${gone.id}\n${gone.rev}`)) add({ ...gone, synced: { ...gone.synced, rev: gone.rev } })
    }
  }

  const queue = [...outgoingDocs.values()]
  let pushed = 0
  for (let start = 0; start < queue.length; start += limit) {
    options.signal?.throwIfAborted()
    const batch = queue.slice(start, start + limit)
    const asked: Record<string, string[]> = {}
    for (const { id, rev } of batch) asked[id] = [...(asked[id] ?? []), rev]
    const missing = await server.revsDiff(asked)
    // A revision the server already holds (a push cut off after the server took it, a blob another device sent) is
    // neither sealed nor sent again.
    const send = batch.filter(({ id, rev }) => missing.get(id)?.has(rev))
    const documents = await Promise.all(send.map(async (entry) => ({ entry, document: await documentOf(key, entry) })))
    // A content this device no longer holds (a file row whose blob is gone) is not sent, nor recorded as sent.
    const unsent = new Set(documents.filter(({ document }) => document === undefined).map(({ entry }) => entry))
    await server.bulkDocs(documents.flatMap(({ document }) => (document ? [document] : [])), false)
    // Last write per id wins: a row's content revision comes before the tombstones of its losers, all naming the same state.
    await markSynced(context, [...new Map(batch.filter((entry) => !unsent.has(entry)).map(({ synced }) => [synced.id, synced])).values()])
    pushed += send.length - unsent.size
    options.onProgress?.({ phase: 'push', done: Math.min(start + limit, queue.length), total: queue.length })
  }
  // Every recorded write is now on the server or needs nothing there; one written again meanwhile stays for the next push.
  await clearOutbox(context, entries)
  if (scanning) await markOutboxScanned(context)
  return pushed
}

/** A blob's revision: its content never changes, so it is named by its hash (keyed, like every revision). */
async function blobDigest(key: SyncKey, hash: string): Promise<string> {
  return await keyedHash(key.ids, `blob revision\n${hash}`)
}

/** The document to send; undefined when its content is no longer here. */
async function documentOf(key: SyncKey, entry: Outgoing): Promise<Record<string, unknown> | undefined> {
  const head = { _id: entry.id, _rev: entry.rev, _revisions: revisions(entry.rev, entry.parent), kind: entry.kind }
  if (!entry.content) return { ...head, _deleted: true }
  const content = await entry.content()
  if (content === undefined) return undefined
  return { ...head, ...(await seal(key.key, entry.id, canonicalJson(content))) }
}

/** A deletion of `parent`, with a revision every device computes alike. */
async function tombstone(id: string, kind: SyncKind, parent: string, synced: SyncDoc): Promise<Outgoing> {
  const rev = `${generation(parent) + 1}-${(await sha256(`deleted\n${parent}`)).slice(0, 32)}`
  return { id, kind, rev, parent, synced }
}

function revisions(rev: string, parent: string | undefined): { start: number; ids: string[] } {
  return { start: generation(rev), ids: [hashOf(rev), ...(parent ? [hashOf(parent)] : [])] }
}
