import { takeSnapshot } from '../snapshot'
import type { StoreContext } from '../store/context'
import { listSessions, updateSession } from '../store/session-store'
import type { OutsideChange } from '../workspace/disk/disk-workspace'
import { relativePath } from '../workspace/path'
import type { Workspace } from '../workspace/workspace'
import { recordEdit } from './editor-handlers'

/**
 * Files of a folder project that another program changed (an editor, `git checkout`, a build) go into the Changes of
 * the project's most recent session as "changed outside": each file's version before (the hash the workspace last
 * knew) and now (a snapshot, which also stores the new contents). The agent's next turn starts from them, so its own
 * diff stays its own.
 */
export async function recordOutsideEdits(store: StoreContext, projectID: string, workspace: Workspace, changes: readonly OutsideChange[]): Promise<void> {
  const [session] = (await listSessions(store, { projectID, limit: 1 })).items
  if (!session) return
  const after = await takeSnapshot({ store, projectID, workspace })
  await updateSession(
    store,
    session.id,
    (draft) => {
      let edits = draft.userEdits ?? []
      for (const change of changes) {
        const file = relativePath(workspace.root, change.path)
        const now = after.files[file]
        edits = recordEdit(edits, {
          file,
          ...(change.before === undefined ? {} : { before: change.before }),
          ...(now === undefined ? {} : { after: now }),
          time: store.now(),
          by: 'outside',
        })
      }
      draft.userEdits = edits
    },
    { touch: false },
  )
  // Changes views reload the outside edits on a workspace change; this one comes once they are recorded.
  for (const change of changes) {
    const kind = after.files[relativePath(workspace.root, change.path)] === undefined ? 'remove' : 'write'
    store.emit({ type: 'workspace.changed', projectID, change: { type: kind, path: change.path } })
  }
}
