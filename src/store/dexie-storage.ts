import { log } from '../core/log'
import type { TabcodeDatabase } from './database'
import { parseWith } from '../core/errors'
import { WorkspaceEntrySchema, type WorkspaceEntry } from '../core/schema'
import { putBlobs } from './blobs'
import { IndexEntrySchema, type IndexEntry, type StorageCommit, type WorkspaceStorage } from '../core/workspace-storage'
import { write } from './transaction'

/** A project's workspace in the `files` and `blobs` stores; blobs are shared with other projects and snapshots. */
export function createDexieStorage(db: TabcodeDatabase, projectID: string): WorkspaceStorage {
  return {
    async load() {
      const rows = await db.files.where('projectID').equals(projectID).toArray()
      const entries: IndexEntry[] = []
      for (const row of rows) {
        // A row that no longer fits the schema is left in the database but not shown, rather than failing the load.
        const parsed = IndexEntrySchema.safeParse(row)
        if (parsed.success) entries.push(parsed.data)
        else log.warn(`Skipping an unreadable workspace entry: ${String(row.path)}`)
      }
      return entries
    },
    async readBlob(hash) {
      const blob = await db.blobs.get(hash)
      return blob?.data
    },
    async commit(change: StorageCommit) {
      await write({ db }, [db.files, db.blobs], async () => {
        await putBlobs({ db }, change.blobs.map((blob) => ({ hash: blob.hash, data: blob.data, size: blob.data.length })))
        if (change.remove.length > 0) await db.files.bulkDelete(change.remove.map((path): [string, string] => [projectID, path]))
        if (change.put.length > 0) await db.files.bulkPut(change.put.map((entry) => toRow(projectID, entry)))
      })
    },
  }
}

function toRow(projectID: string, entry: IndexEntry): WorkspaceEntry {
  const row: WorkspaceEntry =
    entry.type === 'file'
      ? { type: 'file', projectID, path: entry.path, hash: entry.hash, size: entry.size, modified: entry.modified }
      : { type: 'directory', projectID, path: entry.path, modified: entry.modified }
  return parseWith(WorkspaceEntrySchema, row, 'workspace entry')
}
