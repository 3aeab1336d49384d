import { createMemoryStorage } from '../memory-storage'
import { StoredWorkspace, type LocalWorkspace } from '../stored-workspace'

/**
 * A local workspace that lives only in memory: for tests, and where IndexedDB is not wanted. `files` maps paths
 * (absolute, or relative to `/workspace`) to text. Returned at once; operations wait until the files are in.
 */
export function createMemoryWorkspace(files: Record<string, string> = {}, options?: { now?: () => number }): LocalWorkspace {
  const workspace = new StoredWorkspace({ storage: createMemoryStorage(), entries: [], now: options?.now })
  workspace.seed(files)
  return workspace
}
