import { z } from 'zod'
import { defineError, parseWith } from '../core/errors'
import { AllDocsSchema, BulkDocsResultSchema, BulkGetSchema, ChangesSchema, CheckpointDocumentSchema, RevsDiffSchema, type Changes } from './protocol'

/*
 * The few endpoints of CouchDB's replication protocol the replicator uses, over `fetch` (docs/sync.md, "Why our own
 * replicator"). Nothing here knows about rows or keys: it moves JSON documents and says clearly what went wrong.
 */

export const SyncServerError = defineError('SyncServerError', (reason: 'unreachable' | 'unauthorised' | 'missing' | 'refused', detail: string) => ({
  message:
    reason === 'unreachable'
      ? `The sync server could not be reached (${detail}). Check the URL, that the server runs, and that it allows this page's origin (CORS).`
      : reason === 'unauthorised'
        ? `The sync server refused the credentials (${detail}).`
        : reason === 'missing'
          ? `The sync database does not exist (${detail}).`
          : `The sync server refused a request: ${detail}`,
  data: { reason, detail },
}))

/** The outcome of a connection test, each with what the user can do about it. */
export type ConnectionReport =
  | { type: 'ready' }
  | { type: 'missing'; mayCreate: boolean }
  | { type: 'unreachable'; detail: string }
  | { type: 'unauthorised'; detail: string }
  | { type: 'refused'; detail: string }

const SessionSchema = z.object({ userCtx: z.object({ roles: z.array(z.string()) }) })

export interface CouchOptions {
  /** The server's URL, without the database. */
  url: string
  database: string
  /** Sent with every request, e.g. `Basic …`; kept like an API key by its owner. */
  authorization?: string
  fetch?: typeof fetch
}

export interface RevisionRef {
  id: string
  rev: string
}

export class CouchDatabase {
  /** The database's URL. */
  readonly base: string
  private readonly server: string
  private readonly options: CouchOptions

  constructor(options: CouchOptions) {
    this.options = options
    this.server = options.url.replace(/\/+$/, '')
    this.base = `${this.server}/${encodeURIComponent(options.database)}`
  }

  /**
   * What Settings → Sync's "Test connection" tells the user: the server and database answer, or which of them does
   * not. A browser hides a CORS refusal behind the same failure as an unreachable server, so `unreachable` names both.
   */
  async probe(): Promise<ConnectionReport> {
    try {
      const found = await this.request('GET', '', undefined, [404])
      if (found.status !== 404) return { type: 'ready' }
      // CouchDB lets a server admin create databases; `_session` names the caller's roles.
      const session = await this.request('GET', '/_session', undefined, [401, 403, 404], this.server)
      const roles = SessionSchema.safeParse(session.body).data?.userCtx.roles ?? []
      return { type: 'missing', mayCreate: roles.includes('_admin') }
    } catch (error) {
      if (!SyncServerError.isInstance(error)) throw error
      if (error.data.reason === 'unreachable') return { type: 'unreachable', detail: error.data.detail }
      if (error.data.reason === 'unauthorised') return { type: 'unauthorised', detail: error.data.detail }
      return { type: 'refused', detail: error.data.detail }
    }
  }

  /** Creates the database (the user asked to, after `probe` said it is missing); one that exists already is fine. */
  async createDatabase(): Promise<void> {
    await this.request('PUT', '', undefined, [412])
  }

  /** A document by id, or undefined when the server has none (or only a deleted one). */
  async get(id: string): Promise<unknown> {
    const response = await this.request('GET', `/${encodeURIComponent(id)}`, undefined, [404])
    return response.status === 404 ? undefined : response.body
  }

  /** Changes after `since`, every leaf revision of each document (`style=all_docs`), at most `limit`. */
  async changes(since: string, limit: number): Promise<Changes> {
    const query = new URLSearchParams({ since, limit: String(limit), style: 'all_docs' })
    return this.parse(ChangesSchema, (await this.request('GET', `/_changes?${query}`)).body, 'changes feed')
  }

  /**
   * The changes of the named documents only (`filter=_doc_ids`, every leaf revision): what a device fetching one
   * session asks for the documents `idsInRange` listed.
   */
  async changesOf(ids: readonly string[]): Promise<Changes> {
    const query = new URLSearchParams({ filter: '_doc_ids', style: 'all_docs' })
    return this.parse(ChangesSchema, (await this.request('POST', `/_changes?${query}`, { doc_ids: ids })).body, 'changes feed')
  }

  /**
   * Ids from `start` (inclusive) up to `end`, at most `limit`, in key order; `after` continues a listing past that id.
   * A key range of `_all_docs`, which every CouchDB-protocol server answers without an index or a design document.
   */
  async idsInRange(start: string, end: string, limit: number, after?: string): Promise<string[]> {
    const query = new URLSearchParams({ startkey: JSON.stringify(after ?? start), endkey: JSON.stringify(end), limit: String(limit), ...(after ? { skip: '1' } : {}) })
    return this.parse(AllDocsSchema, (await this.request('GET', `/_all_docs?${query}`)).body, 'document list').rows.map((row) => row.id)
  }

  /** Where the database's changes feed stands now: a round started after reading it sees every change up to it. */
  async updateSeq(signal?: AbortSignal): Promise<string> {
    const body = (await this.request('GET', '', undefined, [], this.base, signal)).body
    return String(this.parse(z.object({ update_seq: z.union([z.string(), z.number()]) }).loose(), body, 'database info').update_seq)
  }

  /**
   * Waits until the database changes after `since` (CouchDB's `feed=longpoll`), or `timeout` ms pass; answers whether
   * anything changed. The sync service waits here between rounds, so another device's change arrives within seconds
   * without polling; aborting `signal` ends the wait.
   */
  async changesLongpoll(since: string, signal: AbortSignal, timeout = 25_000): Promise<{ changed: boolean; lastSeq: string }> {
    const query = new URLSearchParams({ feed: 'longpoll', since, timeout: String(timeout), limit: '1' })
    const body = this.parse(ChangesSchema, (await this.request('GET', `/_changes?${query}`, undefined, [], this.base, signal)).body, 'changes feed')
    return { changed: body.results.length > 0, lastSeq: String(body.last_seq) }
  }

  /** The named revisions the server still has; with `revs`, each with its ancestry (`_revisions`). */
  async bulkGet(refs: readonly RevisionRef[], options: { revs?: boolean } = {}): Promise<Array<Record<string, unknown>>> {
    if (refs.length === 0) return []
    const body = this.parse(BulkGetSchema, (await this.request('POST', `/_bulk_get${options.revs ? '?revs=true' : ''}`, { docs: refs })).body, 'bulk get')
    const found: Array<Record<string, unknown>> = []
    // A leaf the server compacted away since its changes feed named it has nothing left to merge: it is passed over.
    for (const result of body.results) for (const doc of result.docs) if (doc.ok) found.push(doc.ok)
    return found
  }

  /** Which of the given revisions the server lacks, by document id. */
  async revsDiff(revisions: Record<string, string[]>): Promise<Map<string, Set<string>>> {
    if (Object.keys(revisions).length === 0) return new Map()
    const body = this.parse(RevsDiffSchema, (await this.request('POST', '/_revs_diff', revisions)).body, 'revs diff')
    return new Map(Object.entries(body).map(([id, entry]) => [id, new Set(entry.missing ?? [])]))
  }

  /**
   * Writes documents. With `newEdits: false` (replication) the server keeps each document's own revision and
   * history; otherwise it assigns revisions and answers a conflict per document, which the result carries.
   */
  async bulkDocs(docs: readonly object[], newEdits: boolean): Promise<z.infer<typeof BulkDocsResultSchema>> {
    if (docs.length === 0) return []
    const body = this.parse(BulkDocsResultSchema, (await this.request('POST', '/_bulk_docs', { docs, new_edits: newEdits })).body, 'bulk docs')
    if (!newEdits) {
      const failed = body.find((result) => result.error)
      if (failed) throw new SyncServerError('refused', `${failed.id}: ${failed.error} ${failed.reason ?? ''}`)
    }
    return body
  }

  /** A checkpoint kept on the server (`_local` documents never replicate further). */
  async getLocal(id: string): Promise<z.infer<typeof CheckpointDocumentSchema> | undefined> {
    const response = await this.request('GET', `/_local/${encodeURIComponent(id)}`, undefined, [404])
    return response.status === 404 ? undefined : this.parse(CheckpointDocumentSchema, response.body, 'checkpoint')
  }

  async putLocal(id: string, since: string): Promise<void> {
    const current = await this.getLocal(id)
    await this.request('PUT', `/_local/${encodeURIComponent(id)}`, { _id: `_local/${id}`, ...(current?._rev ? { _rev: current._rev } : {}), since })
  }

  private parse<T>(schema: z.ZodType<T>, value: unknown, shape: string): T {
    return parseWith(schema, value, `sync server ${shape}`)
  }

  private async request(method: string, path: string, body?: unknown, accepted: number[] = [], root = this.base, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (this.options.authorization) headers.authorization = this.options.authorization
    let response: Response
    try {
      response = await (this.options.fetch ?? fetch)(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), ...(signal ? { signal } : {}) })
    } catch (error) {
      throw new SyncServerError('unreachable', error instanceof Error ? error.message : String(error))
    }
    const text = await response.text()
    const parsed: unknown = text ? safeJson(text) : undefined
    if (response.ok || accepted.includes(response.status)) return { status: response.status, body: parsed }
    const detail = `${method} ${path || '/'}: HTTP ${response.status} ${text.slice(0, 200)}`
    if (response.status === 401 || response.status === 403) throw new SyncServerError('unauthorised', detail)
    if (response.status === 404) throw new SyncServerError('missing', detail)
    throw new SyncServerError('refused', detail)
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
