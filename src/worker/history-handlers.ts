import type { StoreContext } from '../session/context'
import type { WorkerHandlers } from './protocol'
import type { SessionRunner } from './session-runner'
import type { WorkspaceManager } from './workspace-manager'

type HistoryHandlers = Pick<WorkerHandlers, 'forkSession' | 'forks' | 'revertPreview' | 'revertSession' | 'unrevertSession'>

/** Fork, revert and unrevert: branching and undoing a session's history (and its files). */
export function historyHandlers(ready: () => StoreContext, runner: () => SessionRunner, workspaces: () => WorkspaceManager): HistoryHandlers {
  void ready
  void runner
  void workspaces
  return {
    forkSession: () => {
      throw new Error('Not built yet')
    },
    forks: () => {
      throw new Error('Not built yet')
    },
    revertPreview: () => {
      throw new Error('Not built yet')
    },
    revertSession: () => {
      throw new Error('Not built yet')
    },
    unrevertSession: () => {
      throw new Error('Not built yet')
    },
  }
}
