import type { FileTimes } from '../core/ports'
import type { LoopDependencies } from '../session/loop'
import { createFileTimes } from '../tools/file-times'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import type { Workspace } from '../workspace/workspace'

/**
 * The workspace and file-times ports of a loop under test: every project shares one in-memory workspace (empty
 * unless `workspace` is given) on the local backend, and each session gets its own read times, never shared with
 * another call's loop.
 */
export function testWorkspacePorts(options: { now: () => number; workspace?: Workspace }): Pick<LoopDependencies, 'workspaces' | 'fileTimes'> & {
  workspace: Workspace
} {
  const workspace = options.workspace ?? createMemoryWorkspace({}, { now: options.now })
  const bySession = new Map<string, FileTimes>()
  return {
    workspace,
    workspaces: { get: async () => workspace, status: () => ({ backend: 'local' }) },
    fileTimes: (sessionID) => {
      let times = bySession.get(sessionID)
      if (!times) bySession.set(sessionID, (times = createFileTimes()))
      return times
    },
  }
}
