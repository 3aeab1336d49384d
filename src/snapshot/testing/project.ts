import { makeTestContext } from '../../testing/test-context'
import { createMemoryWorkspace } from '../../workspace/local/testing/memory-workspace'
import type { LocalWorkspace } from '../../workspace/local/stored-workspace'
import type { Workspace } from '../../workspace/workspace'
import { createTrackCache } from '../track'

export const PROJECT = 'prj_test'

/**
 * A project for snapshot tests: a store over fake IndexedDB and a memory workspace whose clock the test moves.
 * `plain` is the same workspace without the local backend's hash manifest, as WebContainer is: snapshots of it
 * read files and rely on the cache. Its `reads` lists every file read.
 */
export function makeProject(files: Record<string, string> = {}) {
  const { context, advance } = makeTestContext()
  let time = 1_000_000
  const workspace = createMemoryWorkspace(files, { now: () => time })
  const plain = withoutManifest(workspace)
  // The cache's clock runs well ahead of file times, so no file looks recently modified unless a test says so.
  let cacheTime = time + 60_000
  const cache = createTrackCache({ now: () => cacheTime })
  return {
    store: context,
    db: context.db,
    advance,
    workspace,
    plain,
    cache,
    /** Moves the workspace clock (file modification times). */
    tick(milliseconds = 1) {
      time += milliseconds
      cacheTime = Math.max(cacheTime, time + 60_000)
    },
    setCacheTime(value: number) {
      cacheTime = value
    },
    fileTime: () => time,
    track: { store: context, projectID: PROJECT, workspace: plain, cache },
  }
}

export function withoutManifest(workspace: LocalWorkspace): Workspace & { reads: string[] } {
  const reads: string[] = []
  return {
    backend: workspace.backend,
    root: workspace.root,
    reads,
    readFile: (path) => {
      reads.push(path)
      return workspace.readFile(path)
    },
    readText: (path) => workspace.readText(path),
    writeFile: (path, content) => workspace.writeFile(path, content),
    list: (path) => workspace.list(path),
    stat: (path) => workspace.stat(path),
    remove: (path, options) => workspace.remove(path, options),
    mkdir: (path, options) => workspace.mkdir(path, options),
    glob: (pattern, options) => workspace.glob(pattern, options),
    grep: (pattern, options) => workspace.grep(pattern, options),
    exec: (command, options) => workspace.exec(command, options),
    watch: (listener) => workspace.watch(listener),
  }
}
