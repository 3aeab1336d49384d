import type { StoreContext } from '../store/context'
import { getSession } from '../store/session-store'
import { textOf } from '../core/text-sniff'
import { resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError } from '../workspace/workspace'
import type { Handlers } from '../core/protocol/base'
import type { FileContent, WorkspaceApi } from '../core/protocol/workspace'
import type { WorkspaceManager } from './workspace-manager'
import { createFileSearch } from './file-search'

/**
 * The file tree's, viewer's and diff view's reads. They live in the worker's entry: before WebContainer attaches
 * (which only the engine's tools ask for) a project's files are the stored copy, read with the store alone, so a
 * session's files open offline even when the engine was never downloaded. The page's word that WebContainer is not
 * coming (it says so on every boot) is here too: it only changes which workspace the manager serves.
 */
export function workspaceReadHandlers(
  ready: () => StoreContext,
  workspaces: () => WorkspaceManager,
  currentProject: () => string | undefined,
): Handlers<WorkspaceApi> {
  const search = createFileSearch()
  return {
    searchProjectFiles: async ({ projectID, query, limit }) => search(projectID, await workspaces().get(projectID), query, limit),
    workspaceInfo: (projectID) => ({ projectID, ...workspaces().status(projectID) }),
    useLocalWorkspace: (reason) => {
      workspaces().setUnavailable(reason)
      const id = currentProject()
      if (!id) throw new WorkspaceError('unavailable', '', 'No project is open yet.')
      return { projectID: id, ...workspaces().status(id) }
    },
    listFiles: async ({ projectID, path }) => (await workspaces().get(projectID)).list(resolvePath(WORKSPACE_ROOT, path)),
    readFile: async ({ projectID, path }): Promise<FileContent> => {
      const workspace = await workspaces().get(projectID)
      const absolute = resolvePath(WORKSPACE_ROOT, path)
      const data = await workspace.readFile(absolute)
      // The same test the diffs use: text is valid UTF-8 with no NUL byte early on.
      const text = textOf(data)
      return text === null ? { type: 'binary', path: absolute, size: data.byteLength } : { type: 'text', path: absolute, text, size: data.byteLength }
    },
    readPreviewFile: async ({ projectID, path }) => {
      const workspace = await workspaces().get(projectID)
      try {
        return await workspace.readFile(resolvePath(WORKSPACE_ROOT, path))
      } catch (error) {
        // A page naming a file that is not there is the page's problem, shown in the preview, not a failed call.
        if (error instanceof WorkspaceError && (error.code === 'not-found' || error.code === 'is-directory')) return null
        throw error
      }
    },
    sessionDiffs: async (sessionID) => (await getSession(ready(), sessionID)).summary?.diffs ?? [],
  }
}
