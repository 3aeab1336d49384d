import type { ProgramFiles } from '../runtime/program'

/**
 * Keeping Python's in-memory filesystem and the project in step, both ways, by comparing path → signature maps:
 * before a run, what the project has against what the interpreter was last given (so a warm run sends only what
 * changed); after it, the interpreter's tree against the one it started from (so only what Python touched comes
 * back). A signature is `d` for a directory and `size:mtime` for a file.
 */
export type Tree = ReadonlyMap<string, string>

export interface TreeChanges {
  /** Deleted (recursively), applied first. */
  remove: string[]
  mkdir: string[]
  write: string[]
}

/** Never synced: version control and installed packages are not Python's business, and are often huge. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules'])

export const DIRECTORY = 'd'

export function fileSignature(size: number, modified: number): string {
  return `${size}:${Math.floor(modified)}`
}

export function compareTrees(before: Tree, after: Tree): TreeChanges {
  const changes: TreeChanges = { remove: [], mkdir: [], write: [] }
  for (const [path, signature] of before) {
    const now = after.get(path)
    const retyped = now !== undefined && (now === DIRECTORY) !== (signature === DIRECTORY)
    if ((now === undefined || retyped) && !coveredBy(changes.remove, path)) changes.remove.push(path)
  }
  for (const [path, signature] of after) {
    const then = before.get(path)
    if (then === signature) continue
    if (signature === DIRECTORY) {
      if (then === undefined || then !== DIRECTORY) changes.mkdir.push(path)
    } else changes.write.push(path)
  }
  return changes
}

/** Whether a directory already being removed contains `path`. */
function coveredBy(removed: readonly string[], path: string): boolean {
  return removed.some((directory) => path.startsWith(`${directory}/`))
}

/** The project's tree as `files` reports it, without the skipped directories. */
export async function readProjectTree(files: Pick<ProgramFiles, 'list'>, root: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>()
  const pending = [root]
  while (pending.length > 0) {
    const directory = pending.pop()!
    for (const entry of await files.list(directory)) {
      if (entry.type === 'directory') {
        if (SKIPPED_DIRECTORIES.has(entry.name)) continue
        tree.set(entry.path, DIRECTORY)
        pending.push(entry.path)
      } else tree.set(entry.path, fileSignature(entry.size, entry.modified))
    }
  }
  return tree
}

/** Parents first, so a directory exists before anything is made inside it. */
export function byDepth(paths: readonly string[]): string[] {
  return [...paths].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0))
}
