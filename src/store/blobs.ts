import type { TabcodeDatabase } from './database'
import { parseWith } from '../core/errors'
import { BlobSchema, type Blob } from '../core/schema'

/** Reads and writes of `blobs`: file contents by hash, shared by workspaces, snapshots and shares. */
type BlobStore = { db: TabcodeDatabase }

/** The blobs of `hashes`, in order; `undefined` where one is not stored. */
export function getBlobs(store: BlobStore, hashes: readonly string[]): Promise<(Blob | undefined)[]> {
  return store.db.blobs.bulkGet([...hashes])
}

export async function getBlob(store: BlobStore, hash: string): Promise<Blob | undefined> {
  return store.db.blobs.get(hash)
}

/** Which of `hashes` are stored already (only the keys are read). */
export async function storedHashes(store: BlobStore, hashes: readonly string[]): Promise<Set<string>> {
  return new Set(await store.db.blobs.where('hash').anyOf([...hashes]).primaryKeys())
}

/**
 * Stores the blobs not stored yet, each validated first (nothing is written when one is invalid). `put`, not
 * `add`: another tab may store the same content at the same time, and the bytes are equal by definition. Runs in
 * the caller's transaction when there is one (it must cover `blobs`).
 */
export async function putBlobs(store: BlobStore, inputs: readonly Blob[], options: { known?: 'checked' } = {}): Promise<void> {
  const rows = inputs.map((input) => parseWith(BlobSchema, input, 'blob'))
  if (rows.length === 0) return
  const { db } = store
  if (options.known === 'checked') {
    await db.blobs.bulkPut(rows)
    return
  }
  const stored = await db.blobs.bulkGet(rows.map((blob) => blob.hash))
  const missing = rows.filter((_, index) => stored[index] === undefined)
  if (missing.length > 0) await db.blobs.bulkPut(missing)
}
