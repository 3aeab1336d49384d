import type { WorkspaceStorage } from '../../core/workspace-storage'
import type { GitRemotes } from '../runtime/program'
import type { WorkspaceChange } from '../workspace'
import { StoredWorkspace, type LocalWorkspace } from './stored-workspace'

export type { LocalWorkspace } from './stored-workspace'

export interface LocalWorkspaceOptions {
  /** Where the project's entries and contents live: IndexedDB in the app (the worker wires `store/dexie-storage`). */
  storage: WorkspaceStorage
  now?: () => number
  /** Every change, after it is stored (the worker forwards them to the file trees of every tab). */
  onChange?: (change: WorkspaceChange) => void
  /** How the shell's `git` reaches remotes. */
  remotes?: GitRemotes
}

/** A project's persisted workspace; resolves once the project's file index is loaded. */
export async function createLocalWorkspace(options: LocalWorkspaceOptions): Promise<LocalWorkspace> {
  const { storage } = options
  const entries = await storage.load()
  return new StoredWorkspace({ storage, entries, now: options.now, onChange: options.onChange, ...(options.remotes ? { remotes: options.remotes } : {}) })
}
