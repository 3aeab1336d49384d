import { z } from 'zod'

/** The tables sync carries, each row one document; the kind is the only thing about a row the server reads in clear. */
export const SyncKindSchema = z.enum(['session', 'message', 'part'])
export type SyncKind = z.infer<typeof SyncKindSchema>

/**
 * What this device last exchanged with the server for one row: the revision and a digest of the row's content
 * then. A row whose digest differs has changed here since; `losers` are conflicting revisions on the server that
 * the next push deletes, because this device merged them into its row (docs/sync.md, "Conflicts").
 */
export const SyncDocSchema = z.object({
  type: z.literal('synced'),
  id: z.string().min(1),
  kind: SyncKindSchema,
  rev: z.string().min(1),
  /** Absent for a tombstone: the row is gone on both sides. */
  digest: z.string().min(1).optional(),
  losers: z.array(z.string().min(1)).optional(),
})
export type SyncDoc = z.infer<typeof SyncDocSchema>

/** How far this device has read one server database's changes feed. */
export const SyncCheckpointSchema = z.object({
  type: z.literal('checkpoint'),
  /** The server URL and database, and this device's replication id. */
  key: z.string().min(1),
  since: z.string(),
})
export type SyncCheckpoint = z.infer<typeof SyncCheckpointSchema>
