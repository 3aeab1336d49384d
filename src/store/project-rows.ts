import type { TabcodeDatabase } from './database'
import type { Blob, Project, WorkspaceEntry } from '../core/schema'
import type { ImportedFile } from '../workspace/import-files'
import { dirname, resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError } from '../workspace/workspace'
import { hashContent } from '../workspace/local/hash'

/** A new project and its files as rows, ready to write in the same transaction as whatever else comes with them. */
export interface ProjectRows {
  project: Project
  files: WorkspaceEntry[]
  blobs: Blob[]
}

/**
 * The `files` and `blobs` rows of a project made from `files` (already made safe by `prepareImport`), the same
 * entries the local workspace would store writing them one by one: every missing parent directory, each content
 * once. Nothing is written, so a caller can put the project, its files and its sessions in one transaction.
 */
export async function projectRows(project: Project, files: readonly ImportedFile[], modified: number): Promise<ProjectRows> {
  const entries = new Map<string, WorkspaceEntry>()
  const blobs = new Map<string, Blob>()
  for (const file of files) {
    const path = resolvePath(WORKSPACE_ROOT, file.path)
    const data = file.data.slice()
    const hash = await hashContent(data)
    if (entries.get(path)?.type === 'directory') throw new WorkspaceError('is-directory', path, `Is a directory: ${path}`)
    for (let parent = dirname(path); parent !== WORKSPACE_ROOT && parent !== '/'; parent = dirname(parent)) {
      const entry = entries.get(parent)
      if (entry?.type === 'file') throw new WorkspaceError('not-directory', path, `Not a directory: ${parent}`)
      if (entry) break
      entries.set(parent, { type: 'directory', projectID: project.id, path: parent, modified })
    }
    // The last file at a path wins, as the last write would.
    entries.set(path, { type: 'file', projectID: project.id, path, hash, size: data.length, modified })
    blobs.set(hash, { hash, data, size: data.length })
  }
  return { project, files: [...entries.values()], blobs: [...blobs.values()] }
}

/**
 * Writes the rows inside the caller's transaction (which must cover `projects`, `files` and `blobs`). `add`, not
 * `put`, for the project and its files: a collision fails the whole transaction rather than overwriting a row.
 * Blobs already stored (shared by content with other projects and snapshots) are left as they are.
 */
export async function addProjectRows(db: TabcodeDatabase, rows: ProjectRows): Promise<void> {
  await db.projects.add(rows.project)
  if (rows.blobs.length) {
    const stored = await db.blobs.bulkGet(rows.blobs.map((blob) => blob.hash))
    const missing = rows.blobs.filter((_, index) => stored[index] === undefined)
    if (missing.length) await db.blobs.bulkAdd(missing)
  }
  if (rows.files.length) await db.files.bulkAdd(rows.files)
}
