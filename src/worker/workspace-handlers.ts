import type { StoreContext } from '../session/context'
import type { WorkerHandlers } from './protocol'

type WorkspaceHandlers = Pick<
  WorkerHandlers,
  | 'listProjects'
  | 'createProject'
  | 'workspaceInfo'
  | 'listFiles'
  | 'readFile'
  | 'sessionDiffs'
  | 'pendingAsks'
  | 'replyAsk'
  | 'listApprovals'
  | 'revokeApproval'
>

// Placeholder while the workspace lands; every handler is replaced by the integration of issue 4.
const pending = (): never => {
  throw new Error('The workspace is not available in this build yet.')
}

export function workspaceHandlers(_ready: () => StoreContext): WorkspaceHandlers {
  return {
    listProjects: pending,
    createProject: pending,
    workspaceInfo: pending,
    listFiles: pending,
    readFile: pending,
    sessionDiffs: pending,
    pendingAsks: pending,
    replyAsk: pending,
    listApprovals: pending,
    revokeApproval: pending,
  }
}
