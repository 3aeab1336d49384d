import { basename, dirname } from '../path'
import type { IndexEntry } from '../../core/workspace-storage'

/** What an index holds per path: stored entries carry a content hash, a folder on disk's only size and time. */
export type IndexedEntry = { type: 'file'; path: string; size: number; modified: number } | { type: 'directory'; path: string; modified: number }

/**
 * The workspace's entries in memory, by path, with each directory's children so listing and recursive removal do
 * not scan every entry. Some directories (`/`, the workspace root) always exist and are never stored.
 */
export class FileIndex<Entry extends IndexedEntry = IndexEntry> {
  private readonly entries = new Map<string, Entry>()
  private readonly children = new Map<string, Set<string>>()

  constructor(private readonly implicit: readonly string[]) {
    for (const path of implicit) this.set({ type: 'directory', path, modified: 0 } as Entry)
  }

  get(path: string): Entry | undefined {
    return this.entries.get(path)
  }

  isImplicit(path: string): boolean {
    return this.implicit.includes(path)
  }

  /** Adds or replaces an entry; missing parents appear as directories, so a partly stored tree still lists. */
  set(entry: Entry): void {
    const previous = this.entries.get(entry.path)
    this.entries.set(entry.path, entry)
    if (entry.type === 'directory' && !this.children.has(entry.path)) this.children.set(entry.path, new Set())
    if (previous?.type === 'directory' && entry.type === 'file') this.children.delete(entry.path)
    if (entry.path === '/') return
    const parent = dirname(entry.path)
    if (!this.entries.has(parent)) this.set({ type: 'directory', path: parent, modified: entry.modified } as Entry)
    this.children.get(parent)?.add(entry.path)
  }

  /** Removes the entry and everything under it. */
  delete(path: string): void {
    for (const entry of this.subtree(path)) {
      this.entries.delete(entry.path)
      this.children.delete(entry.path)
    }
    if (path !== '/') this.children.get(dirname(path))?.delete(path)
  }

  /** The entries directly inside a directory, sorted by name. */
  list(path: string): Entry[] {
    const paths = this.children.get(path)
    if (!paths) return []
    return [...paths]
      .map((child) => this.entries.get(child)!)
      .sort((a, b) => compareNames(basename(a.path), basename(b.path)))
  }

  hasChildren(path: string): boolean {
    return (this.children.get(path)?.size ?? 0) > 0
  }

  /** The entry at `path` and everything under it, parents before children. */
  subtree(path: string): Entry[] {
    const root = this.entries.get(path)
    if (!root) return []
    const result: Entry[] = []
    const stack = [root]
    while (stack.length > 0) {
      const entry = stack.pop()!
      result.push(entry)
      for (const child of this.children.get(entry.path) ?? []) stack.push(this.entries.get(child)!)
    }
    return result
  }

  all(): Entry[] {
    return [...this.entries.values()]
  }
}

/** Code-point order, as `ls` in the C locale sorts. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
