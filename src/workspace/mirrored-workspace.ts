import { log } from '../core/log'
import { resolvePath } from './path'
import type { Workspace, WorkspaceChange } from './workspace'

/**
 * WebContainer with the project's persisted copy behind it. WebContainer alone is ephemeral (a reload empties it),
 * so every write a tool makes lands in both, and changes commands make inside the container (a generated file, an
 * `npm init`) are copied back as the container reports them. Reads, searches and commands go to the container,
 * which is where the project runs. `node_modules` is not copied back: it is rebuilt by installing, not kept.
 */
export function mirrorWorkspace(remote: Workspace, local: Workspace): Workspace & { dispose(): void } {
  // By absolute path: the container reports its changes that way, whatever path the write was given.
  const ownWrites = new Set<string>()
  const absolute = (path: string) => resolvePath(remote.root, path)
  const copyBack = async (change: WorkspaceChange) => {
    if (ownWrites.has(absolute(change.path)) || /(^|\/)(node_modules|\.git)(\/|$)/.test(change.path)) return
    try {
      if (change.type === 'remove') {
        if (await local.stat(change.path)) await local.remove(change.path, { recursive: true })
      } else if (change.type === 'mkdir') {
        await local.mkdir(change.path, { recursive: true })
      } else {
        const stat = await remote.stat(change.path)
        if (stat?.type === 'file') await local.writeFile(change.path, await remote.readFile(change.path))
      }
    } catch (error) {
      log.warn(`tabcode: could not keep ${change.path} from WebContainer`, error)
    }
  }
  const stop = remote.watch((change) => void copyBack(change))
  const both = async (path: string, action: (workspace: Workspace) => Promise<void>) => {
    const own = absolute(path)
    ownWrites.add(own)
    try {
      await action(remote)
      await action(local)
    } finally {
      ownWrites.delete(own)
    }
  }
  return {
    backend: remote.backend,
    root: remote.root,
    readFile: (path) => remote.readFile(path),
    readText: (path) => remote.readText(path),
    writeFile: (path, content) => both(path, (workspace) => workspace.writeFile(path, content)),
    list: (path) => remote.list(path),
    stat: (path) => remote.stat(path),
    remove: (path, options) => both(path, (workspace) => workspace.remove(path, options)),
    mkdir: (path, options) => both(path, (workspace) => workspace.mkdir(path, options)),
    glob: (pattern, options) => remote.glob(pattern, options),
    grep: (pattern, options) => remote.grep(pattern, options),
    exec: async (command, options) => ({ ...(await remote.exec(command, options)), runtime: 'webcontainer' }),
    watch: (listener) => local.watch(listener),
    dispose: stop,
  }
}
