import { parseWith } from '../core/errors'
import { ProjectFolderSchema, type ProjectFolder } from '../core/schema'
import type { TabcodeDatabase } from './database'

/** Keeps a project's folder handle, inside the caller's transaction (which must cover `folders`). */
export async function addProjectFolder(db: TabcodeDatabase, folder: ProjectFolder): Promise<void> {
  await db.folders.add(parseWith(ProjectFolderSchema, folder, 'project folder'))
}

/** The folder on disk a project is, or undefined for a project stored in the browser. */
export function projectFolder(store: { db: TabcodeDatabase }, projectID: string): Promise<ProjectFolder | undefined> {
  return store.db.folders.get(projectID)
}
