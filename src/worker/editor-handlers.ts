import { SaveConflictError } from '../core/errors'
import type { Handlers } from '../core/protocol/base'
import type { EditorApi } from '../core/protocol/files'
import type { SessionInfo } from '../core/schema'
import { decode, diffPairs, takeSnapshot } from '../snapshot'
import type { StoreContext } from '../store/context'
import { getSession, updateSession } from '../store/session-store'
import { withFileLock } from '../tools/file-times'
import { relativePath, resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError, type Workspace } from '../workspace/workspace'
import { writeAsUser } from './user-agent-files'

type UserEdit = NonNullable<SessionInfo['userEdits']>[number]

/**
 * The editor's saves. A save is a user change like any other write: it goes through the project's workspace (so
 * the tree, watchers and the agent's stale-read guard, which compares modification times, see it), under the same
 * per-file lock the agent's edit tool takes, and is snapshotted before and after. The session keeps, per file, the
 * entry before the user's first save and after the last, so its Changes tab can show the user's part apart from
 * the agent's (whose turns start from the user's version) and it survives a reload. The user's own hands write
 * it: in a trusted project, the allow rules a save brings into an agent file apply at once (`writeAsUser`).
 */
export function editorHandlers(ready: () => StoreContext, workspaceOf: (projectID: string) => Promise<Workspace>): Handlers<EditorApi> {
  return {
    saveFile: async ({ projectID, path, content, expected, sessionID }) => {
      const store = ready()
      const workspace = await workspaceOf(projectID)
      const absolute = resolvePath(WORKSPACE_ROOT, path)
      return withFileLock(workspace, absolute, async () => {
        if (expected !== undefined) {
          const current = await readText(workspace, absolute)
          if (current !== expected) throw new SaveConflictError(absolute)
        }
        const before = await takeSnapshot({ store, projectID, workspace })
        const file = relativePath(workspace.root, absolute)
        await writeAsUser(store, projectID, workspace, [{ path: file, content }], () => workspace.writeFile(absolute, content))
        const after = await takeSnapshot({ store, projectID, workspace })
        if (sessionID) {
          await updateSession(store, sessionID, (draft) => {
            draft.userEdits = recordEdit(draft.userEdits ?? [], { file, before: before.files[file], after: after.files[file], time: store.now() })
          }, { touch: false })
        }
        const stat = await workspace.stat(absolute)
        return { path: absolute, size: stat?.size ?? content.length, modified: stat?.modified ?? store.now() }
      })
    },
    userEdits: (sessionID) => editsBy(ready(), sessionID, undefined),
    outsideEdits: (sessionID) => editsBy(ready(), sessionID, 'outside'),
  }
}

/** The diffs of a session's edits by the user in this app (`by` undefined) or by another program on disk. */
async function editsBy(store: StoreContext, sessionID: string, by: UserEdit['by']) {
  const session = await getSession(store, sessionID)
  const pairs = (session.userEdits ?? [])
    .filter((edit) => edit.by === by && edit.before !== edit.after)
    .map(({ file, before, after }) => ({ file, before, after }))
  return diffPairs(store, pairs)
}

/** One entry per file and author: the first save's "before" stays, the newest "after" replaces the older. */
export function recordEdit(edits: readonly UserEdit[], edit: UserEdit): UserEdit[] {
  const same = (candidate: UserEdit) => candidate.file === edit.file && candidate.by === edit.by
  const earlier = edits.find(same)
  const merged: UserEdit = { file: edit.file, time: edit.time }
  const before = earlier ? earlier.before : edit.before
  if (before !== undefined) merged.before = before
  if (edit.after !== undefined) merged.after = edit.after
  if (edit.by) merged.by = edit.by
  return [...edits.filter((candidate) => !same(candidate)), merged]
}

async function readText(workspace: Workspace, path: string): Promise<string | undefined> {
  try {
    return decode({ type: 'bytes', data: await workspace.readFile(path) }) ?? undefined
  } catch (error) {
    if (error instanceof WorkspaceError && error.code === 'not-found') return undefined
    throw error
  }
}
