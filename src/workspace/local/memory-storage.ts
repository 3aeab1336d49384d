import type { IndexEntry, StorageCommit, WorkspaceStorage } from '../../core/workspace-storage'

/**
 * Storage in two maps, for tests and for a workspace that should not outlive the page. Unlike IndexedDB blobs
 * (shared with snapshots), these contents belong to this workspace alone, so a blob no file refers to any more is
 * dropped rather than kept for the page's lifetime.
 */
export function createMemoryStorage(): WorkspaceStorage {
  const entries = new Map<string, IndexEntry>()
  const blobs = new Map<string, Uint8Array>()
  const references = new Map<string, number>()
  const release = (entry: IndexEntry | undefined) => {
    if (entry?.type !== 'file') return
    const count = (references.get(entry.hash) ?? 1) - 1
    if (count > 0) references.set(entry.hash, count)
    else {
      references.delete(entry.hash)
      blobs.delete(entry.hash)
    }
  }
  return {
    async load() {
      return [...entries.values()]
    },
    async readBlob(hash) {
      return blobs.get(hash)
    },
    async commit(change: StorageCommit) {
      for (const blob of change.blobs) if (!blobs.has(blob.hash)) blobs.set(blob.hash, blob.data)
      // References are counted before any are released, so rewriting a file with its own content keeps the blob.
      for (const entry of change.put) if (entry.type === 'file') references.set(entry.hash, (references.get(entry.hash) ?? 0) + 1)
      for (const path of change.remove) {
        release(entries.get(path))
        entries.delete(path)
      }
      for (const entry of change.put) {
        release(entries.get(entry.path))
        entries.set(entry.path, entry)
      }
    },
  }
}
