import type { IndexEntry, StorageCommit, WorkspaceStorage } from './storage'

/** Storage in two maps, for tests and for a workspace that should not outlive the page. */
export function createMemoryStorage(): WorkspaceStorage {
  const entries = new Map<string, IndexEntry>()
  const blobs = new Map<string, Uint8Array>()
  return {
    async load() {
      return [...entries.values()]
    },
    async readBlob(hash) {
      return blobs.get(hash)
    },
    async commit(change: StorageCommit) {
      for (const blob of change.blobs) if (!blobs.has(blob.hash)) blobs.set(blob.hash, blob.data)
      for (const path of change.remove) entries.delete(path)
      for (const entry of change.put) entries.set(entry.path, entry)
    },
  }
}
