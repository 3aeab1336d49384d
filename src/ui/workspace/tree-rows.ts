import type { FileStat } from '../../core/workspace'

/** A directory's listing as the tree knows it. */
export type DirectoryListing =
  | { status: 'loading'; entries: FileStat[] }
  | { status: 'loaded'; entries: FileStat[] }
  | { status: 'error'; entries: FileStat[]; message: string }

/** One visible line of the tree, with what `aria-level`, `aria-setsize` and `aria-posinset` need. */
export interface TreeRow {
  stat: FileStat
  /** 1 for the root's entries. */
  level: number
  position: number
  setSize: number
  /** The directory this row sits in. */
  parent: string
}

/** Directories first, then by name, the way file explorers list them. */
export function sortEntries(entries: readonly FileStat[]): FileStat[] {
  return [...entries].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'directory' ? -1 : 1
    return a.name.localeCompare(b.name, undefined, { numeric: true })
  })
}

/** The rows on screen: the root's entries and, under every expanded directory, its own (when listed). */
export function visibleRows(root: string, listings: Record<string, DirectoryListing | undefined>, expanded: Record<string, boolean | undefined>): TreeRow[] {
  const rows: TreeRow[] = []
  const walk = (directory: string, level: number) => {
    const entries = listings[directory]?.entries ?? []
    entries.forEach((stat, index) => {
      rows.push({ stat, level, position: index + 1, setSize: entries.length, parent: directory })
      if (stat.type === 'directory' && expanded[stat.path]) walk(stat.path, level + 1)
    })
  }
  walk(root, 1)
  return rows
}

export function parentOf(path: string): string {
  const index = path.lastIndexOf('/')
  return index <= 0 ? '/' : path.slice(0, index)
}

/** Whether `path` is `ancestor` itself or lies somewhere below it. */
export function isWithin(path: string, ancestor: string): boolean {
  if (path === ancestor) return true
  return path.startsWith(ancestor.endsWith('/') ? ancestor : `${ancestor}/`)
}

/**
 * The directory to list again after `path` changed: its parent when the tree has listed it. Otherwise the closest
 * listed ancestor, but only if the path's branch below it is not in that listing yet (a write to `a/b/c.txt` may
 * have created `b` inside a listed `a`; a write deep inside a known, folded `node_modules` changes nothing on
 * screen). Undefined outside the root.
 */
export function directoryToRefresh(path: string, root: string, listings: Record<string, DirectoryListing | undefined>): string | undefined {
  if (path === root || !isWithin(path, root)) return undefined
  let branch = path
  for (let directory = parentOf(path); isWithin(directory, root); branch = directory, directory = parentOf(directory)) {
    const listing = listings[directory]
    if (listing) {
      if (branch === path) return directory
      return listing.entries.some((entry) => entry.path === branch) ? undefined : directory
    }
    if (directory === root || directory === '/') return undefined
  }
  return undefined
}

/** The path shown to people: relative to the project root. */
export function displayPath(path: string, root: string): string {
  if (path === root) return '.'
  return isWithin(path, root) ? path.slice(root.endsWith('/') ? root.length : root.length + 1) : path
}
