import type { StoreContext } from '../session/context'
import type { WorkerHandlers } from './protocol'
import type { SessionRunner } from './session-runner'

type CompactionHandlers = Pick<WorkerHandlers, 'compactSession' | 'undoCompaction' | 'modelView'>

/** Manual compaction, its undo, and the view of exactly what the next request sends. */
export function compactionHandlers(ready: () => StoreContext, runner: () => SessionRunner): CompactionHandlers {
  void ready
  void runner
  return {
    compactSession: () => {
      throw new Error('Not built yet')
    },
    undoCompaction: () => {
      throw new Error('Not built yet')
    },
    modelView: () => {
      throw new Error('Not built yet')
    },
  }
}
