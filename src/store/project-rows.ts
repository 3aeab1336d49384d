import type { TabcodeDatabase } from './database'
import { parseWith } from '../core/errors'
import { BlobSchema, ProjectSchema, WorkspaceEntrySchema, type Blob, type Project, type ProjectFolder, type WorkspaceEntry } from '../core/schema'
import { addProjectFolder } from './folder-store'
import { write } from './transaction'

/** A new project and its files as rows, ready to write in the same transaction as whatever else comes with them. */
export interface ProjectRows {
  project: Project
  files: WorkspaceEntry[]
  blobs: Blob[]
}

/**
 * Writes the rows inside the caller's transaction (which must cover `projects`, `files` and `blobs`), each row
 * validated first, so an invalid one fails before anything is written. `add`, not `put`, for the project and its
 * files: a collision fails the whole transaction rather than overwriting a row. Blobs already stored (shared by
 * content with other projects and snapshots) are left as they are.
 */
export async function addProjectRows(db: TabcodeDatabase, input: ProjectRows): Promise<void> {
  const project = parseWith(ProjectSchema, input.project, 'project')
  const files = input.files.map((file) => parseWith(WorkspaceEntrySchema, file, 'workspace entry'))
  const blobs = input.blobs.map((blob) => parseWith(BlobSchema, blob, 'blob'))
  await db.projects.add(project)
  if (blobs.length) {
    const stored = await db.blobs.bulkGet(blobs.map((blob) => blob.hash))
    const missing = blobs.filter((_, index) => stored[index] === undefined)
    if (missing.length) await db.blobs.bulkAdd(missing)
  }
  if (files.length) await db.files.bulkAdd(files)
}

/** Stores a new project with all of its files, in one transaction: all of it or nothing. */
export async function createProjectWithRows(store: { db: TabcodeDatabase }, rows: ProjectRows): Promise<Project> {
  const { db } = store
  await write(store, [db.projects, db.files, db.blobs], () => addProjectRows(db, rows))
  return rows.project
}

/** Stores a new project that is a folder on disk, with its folder's handle, in one transaction. */
export async function createProjectWithFolder(store: { db: TabcodeDatabase }, rows: ProjectRows, folder: ProjectFolder): Promise<Project> {
  const { db } = store
  await write(store, [db.projects, db.files, db.blobs, db.folders], async () => {
    await addProjectRows(db, rows)
    await addProjectFolder(db, folder)
  })
  return rows.project
}

/** A project's file rows as stored. */
export function projectFiles(store: { db: TabcodeDatabase }, projectID: string): Promise<WorkspaceEntry[]> {
  return store.db.files.where('projectID').equals(projectID).toArray()
}
