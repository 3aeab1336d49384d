import { assertWritable } from '../core/read-only'
import type { StoreContext } from '../store/context'
import { forkSession } from '../session/fork'
import { revertPreview, revertSession, unrevertSession, type SessionFiles } from '../session/revert'
import { getSession } from '../store/session-store'
import { takeSnapshot } from '../snapshot'
import type { Handlers } from '../core/protocol/base'
import type { HistoryApi } from '../core/protocol/history'
import type { SessionRunner } from './session-runner'
import type { WorkspaceManager } from './workspace-manager'

/**
 * Fork, revert and unrevert: branching and undoing a session's history (and its files). Files are reached through
 * the project's workspace as the tools see it (WebContainer when attached, which writes through to the stored copy),
 * so every file a revert changes is announced to the file trees as a `workspace.changed` event by the workspace.
 */
export function historyHandlers(ready: () => StoreContext, runner: () => SessionRunner, workspaces: () => WorkspaceManager): Handlers<HistoryApi> {
  const filesOf = async (context: StoreContext, sessionID: string): Promise<SessionFiles> => {
    const { projectID } = await getSession(context, sessionID)
    return { projectID, workspace: await workspaces().get(projectID) }
  }
  return {
    forkSession: async (input) => {
      const context = ready()
      const { projectID, workspace } = await filesOf(context, input.sessionID)
      const { session, project, newProject } = await forkSession(context, input, {
        root: workspace.root,
        current: () => takeSnapshot({ store: context, projectID, workspace }),
      })
      return { session, project, newProject }
    },
    revertPreview: async (input) => {
      const context = ready()
      const preview = await revertPreview(context, input, await filesOf(context, input.sessionID))
      return { messageID: preview.messageID, ...(preview.partID ? { partID: preview.partID } : {}), messages: preview.messages, files: preview.files }
    },
    revertSession: async (input) => {
      const context = ready()
      assertWritable(await getSession(context, input.sessionID), 'change it')
      const files = await filesOf(context, input.sessionID)
      return runner().whileIdle(input.sessionID, 'revert it', () => revertSession(context, input, files))
    },
    unrevertSession: async (sessionID) => {
      const context = ready()
      assertWritable(await getSession(context, sessionID), 'change it')
      const files = await filesOf(context, sessionID)
      return runner().whileIdle(sessionID, 'undo the revert', () => unrevertSession(context, sessionID, files))
    },
  }
}
