import { z } from 'zod'
import { SyncKindSchema } from '../core/sync-state'

/*
 * What a CouchDB-protocol server sends back, as far as the replicator reads it (CouchDB's "Replication Protocol";
 * docs/sync.md). A server is not ours: every answer is validated before anything uses it.
 */

/** The id of the document holding the key parameters and the key check; not a row, never replicated as one. */
export const KEY_CHECK_ID = 'tabcode:keycheck'

export const KeyCheckDocumentSchema = z.object({
  _id: z.literal(KEY_CHECK_ID),
  _rev: z.string().optional(),
  type: z.literal('keycheck'),
  salt: z.string().min(1),
  iterations: z.number().int().positive(),
  iv: z.string().min(1),
  data: z.string().min(1),
})
export type KeyCheckDocument = z.infer<typeof KeyCheckDocumentSchema>

/** A row's document: ciphertext and the coarse kind, or a tombstone with no content. */
export const RowDocumentSchema = z.union([
  z.object({ _id: z.string().min(1), _rev: z.string().min(1), _deleted: z.literal(true), kind: SyncKindSchema.optional() }).loose(),
  z.object({ _id: z.string().min(1), _rev: z.string().min(1), _deleted: z.literal(false).optional(), kind: SyncKindSchema, iv: z.string().min(1), data: z.string().min(1) }).loose(),
])
export type RowDocument = z.infer<typeof RowDocumentSchema>

export const ChangesSchema = z.object({
  results: z.array(z.object({ seq: z.union([z.string(), z.number()]), id: z.string(), changes: z.array(z.object({ rev: z.string() })), deleted: z.boolean().optional() })),
  last_seq: z.union([z.string(), z.number()]),
  /** How many changes are left after this batch (CouchDB 2+; PouchDB Server leaves it out). */
  pending: z.number().int().nonnegative().optional(),
})
export type Changes = z.infer<typeof ChangesSchema>

export const BulkGetSchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      // A revision the server no longer has comes back as `{error}` from CouchDB and as `{}` from PouchDB Server.
      docs: z.array(z.object({ ok: z.record(z.string(), z.unknown()).optional(), error: z.object({ id: z.string().optional(), rev: z.string().optional(), error: z.string(), reason: z.string().optional() }).optional() })),
    }),
  ),
})

export const RevsDiffSchema = z.record(z.string(), z.object({ missing: z.array(z.string()).optional() }).loose())

export const BulkDocsResultSchema = z.array(z.object({ id: z.string().optional(), rev: z.string().optional(), ok: z.boolean().optional(), error: z.string().optional(), reason: z.string().optional() }).loose())

export const CheckpointDocumentSchema = z.object({ _id: z.string(), _rev: z.string().optional(), since: z.string() }).loose()

/** A revision's ancestry as `_bulk_get?revs=true` gives it: the hashes newest first, the first at generation `start`. */
export const RevisionsSchema = z.object({ start: z.number().int().positive(), ids: z.array(z.string().min(1)).min(1) })

/** `_all_docs` without the documents: ids in key order (a key range: one session's group). */
export const AllDocsSchema = z.object({ rows: z.array(z.object({ id: z.string(), key: z.string() }).loose()) })
