import type { IndexEntry, StorageCommit, WorkspaceStorage } from '../../core/workspace-storage'

/**
 * Where a folder project keeps paths outside the folder (a command's `/tmp`): memory, for the page's lifetime. A
 * folder on disk is the project; files elsewhere were never part of it, so they are neither written to the folder
 * nor stored. Contents no entry refers to any more are dropped at once.
 */
export function createScratchStorage(): WorkspaceStorage {
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
      for (const blob of change.blobs) blobs.set(blob.hash, blob.data)
      for (const path of change.remove) entries.delete(path)
      for (const entry of change.put) entries.set(entry.path, entry)
      const used = new Set([...entries.values()].flatMap((entry) => (entry.type === 'file' ? [entry.hash] : [])))
      for (const hash of blobs.keys()) if (!used.has(hash)) blobs.delete(hash)
    },
  }
}
