import { z } from 'zod'

/** One file or directory in a workspace's index: a persisted `WorkspaceEntry` without its project. */
export const IndexEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('file'),
    path: z.string().startsWith('/'),
    hash: z.string().min(1),
    size: z.number().int().nonnegative(),
    modified: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('directory'),
    path: z.string().startsWith('/'),
    modified: z.number().int().nonnegative(),
  }),
])
export type IndexEntry = z.infer<typeof IndexEntrySchema>
export type FileEntry = Extract<IndexEntry, { type: 'file' }>

/** One atomic change to the stored workspace. */
export interface StorageCommit {
  put: IndexEntry[]
  remove: string[]
  /** Contents the new entries refer to; the storage skips a hash it already holds. */
  blobs: { hash: string; data: Uint8Array<ArrayBuffer> }[]
}

/** Where a workspace keeps its entries and contents: IndexedDB in the app, a pair of maps in tests. */
export interface WorkspaceStorage {
  load(): Promise<IndexEntry[]>
  readBlob(hash: string): Promise<Uint8Array | undefined>
  /** All or nothing: a failed commit leaves the stored workspace as it was. */
  commit(change: StorageCommit): Promise<void>
}
