import { z } from 'zod'

/**
 * The tables sync carries, each row one document (a blob: one file content, shared by every file that holds it); the
 * kind is the only thing about a row the server reads in clear (docs/sync.md, "Documents").
 */
export const SyncKindSchema = z.enum(['session', 'message', 'part', 'project', 'file', 'blob', 'approval', 'setting', 'provider'])
export type SyncKind = z.infer<typeof SyncKindSchema>

/** A row's key in its own table: an id, a setting's key, a blob's hash, or a file's `[projectID, path]`. */
export const LocalKeySchema = z.union([z.string().min(1), z.tuple([z.string().min(1), z.string().min(1)])])
export type LocalKey = z.infer<typeof LocalKeySchema>

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
  /**
   * The row's key here when the document id is not it (a file, a blob, a setting, a message or a part: their ids are
   * keyed hashes or carry their session's group), so a tombstone pulled for it finds the row. Stays on this device.
   */
  local: LocalKeySchema.optional(),
})
export type SyncDoc = z.infer<typeof SyncDocSchema>

/** The tables whose writes the outbox records while sync is set up (blobs travel with the files that hold them). */
export const SyncTableSchema = z.enum(['sessions', 'messages', 'parts', 'projects', 'files', 'approvals', 'settings', 'providers'])
export type SyncTable = z.infer<typeof SyncTableSchema>

/**
 * A row written here since the last push (`syncOutbox`, version 10), recorded by the store in the write's own
 * transaction while sync is set up. `stamp` changes with every write, so a push clears only the entries it sent
 * (a row written again meanwhile stays for the next push).
 */
export const SyncOutboxEntrySchema = z.object({
  /** `<table>\n<key>`, the key's parts joined by `\n`: one entry per row however often it is written. */
  id: z.string().min(1),
  table: SyncTableSchema,
  key: LocalKeySchema,
  stamp: z.string().min(1),
})
export type SyncOutboxEntry = z.infer<typeof SyncOutboxEntrySchema>

/**
 * In `syncMeta`: the outbox records writes (sync is set up here); absent, nothing records them, at no cost. Until
 * `scanned`, a push reads every row once (what was written before recording began), and only then the outbox alone.
 */
export const SyncOutboxMarkSchema = z.object({ type: z.literal('outbox'), key: z.literal('outbox'), since: z.number(), scanned: z.boolean() })
export type SyncOutboxMark = z.infer<typeof SyncOutboxMarkSchema>

/** How far this device has read one server database's changes feed. */
export const SyncCheckpointSchema = z.object({
  type: z.literal('checkpoint'),
  /** The server URL and database, and this device's replication id. */
  key: z.string().min(1),
  since: z.string(),
})
export type SyncCheckpoint = z.infer<typeof SyncCheckpointSchema>

/** A `syncMeta` row: a checkpoint per server and scope, or the outbox's mark. */
export const SyncMetaSchema = z.discriminatedUnion('type', [SyncCheckpointSchema, SyncOutboxMarkSchema])
export type SyncMeta = z.infer<typeof SyncMetaSchema>

/** What the user set up in Settings → Sync; the password and the passphrase are never part of it. */
export const SyncSetupSchema = z.object({
  type: z.literal('sync-setup'),
  /** The server's URL without the database, e.g. `https://couch.example.org`. */
  url: z.string().url(),
  database: z.string().min(1),
  username: z.string().optional(),
  /** Provider keys and MCP tokens travel (encrypted) only when the user ticked this. */
  secrets: z.boolean(),
  /** `on-demand`: a new device takes the session list first and a session's messages when it is opened. */
  messages: z.enum(['all', 'on-demand']),
  paused: z.boolean(),
})
export type SyncSetup = z.infer<typeof SyncSetupSchema>

/**
 * What the sync indicator shows, the same in every tab (it travels as the `sync.status` event):
 * - `off`: no server set up (nothing contacts a server);
 * - `syncing`: a round is under way, `pending` rows left to send or take, `progress` during a device's first sync;
 * - `synced`: nothing left either way, as of `lastSynced`;
 * - `offline`: the browser is offline or the server cannot be reached; retried with backoff;
 * - `paused`: the user paused it;
 * - `error`: it stopped on something the user must fix (`error.fix` says what).
 */
export const SyncStatusSchema = z.object({
  type: z.literal('sync-status'),
  state: z.enum(['off', 'syncing', 'synced', 'offline', 'paused', 'error']),
  setup: SyncSetupSchema.optional(),
  pending: z.number().int().nonnegative(),
  progress: z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  lastSynced: z.number().optional(),
  error: z.object({ name: z.string(), message: z.string(), fix: z.string() }).optional(),
})
export type SyncStatus = z.infer<typeof SyncStatusSchema>
