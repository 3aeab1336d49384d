import type { TabcodeDatabase } from '../../store/database'
import type { WorkspaceChange } from '../workspace'
import { createDexieStorage } from '../../store/dexie-storage'
import { StoredWorkspace, type LocalWorkspace } from './stored-workspace'

export type { LocalWorkspace } from './stored-workspace'

export interface LocalWorkspaceOptions {
  db: TabcodeDatabase
  projectID: string
  now?: () => number
  /** Every change, after it is stored (the worker forwards them to the file trees of every tab). */
  onChange?: (change: WorkspaceChange) => void
}

/** A project's workspace persisted in IndexedDB; resolves once the project's file index is loaded. */
export async function createLocalWorkspace(options: LocalWorkspaceOptions): Promise<LocalWorkspace> {
  const storage = createDexieStorage(options.db, options.projectID)
  const entries = await storage.load()
  return new StoredWorkspace({ storage, entries, now: options.now, onChange: options.onChange })
}
