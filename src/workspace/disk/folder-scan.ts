import { parseGitignore, type IgnoreRule } from '../../core/gitignore'
import type { FileIndex } from '../local/file-index'
import { isInside, relativePath } from '../path'
import { domErrorName, type DirectoryHandle, type FileHandle } from './directory-handle'
import type { DiskEntry, DiskFile } from './disk-entry'
import { isLeftOut } from './left-out'

/** Folders read at once: enough to hide the API's latency, few enough not to flood it. */
const SCAN_CONCURRENCY = 16

/** What a scan does with what it finds, besides listing it. */
export interface ScanOptions {
  /** The workspace path the folder is at. */
  root: string
  handle: DirectoryHandle
  /** What the project ignores: neither listed nor descended into. */
  rules: readonly IgnoreRule[]
  /** Reads a file's size and time; without it files are only named (size and time 0), and `onUnstated` gets them. */
  fileStat?: (path: string, handle: FileHandle) => Promise<DiskFile>
  onUnstated: (path: string, handle: FileHandle) => void
  /** Every folder's handle, so later lookups need not walk to it again. */
  onDirectory: (path: string, handle: DirectoryHandle) => void
}

/** Every tracked entry of the folder, a level at a time. */
export async function scanFolder(options: ScanOptions): Promise<DiskEntry[]> {
  const { root, rules, fileStat } = options
  const entries: DiskEntry[] = []
  let level: { path: string; handle: DirectoryHandle }[] = [{ path: root, handle: options.handle }]
  while (level.length > 0) {
    const next: { path: string; handle: DirectoryHandle }[] = []
    for (let start = 0; start < level.length; start += SCAN_CONCURRENCY) {
      await Promise.all(
        level.slice(start, start + SCAN_CONCURRENCY).map(async ({ path, handle }) => {
          const files: Promise<void>[] = []
          for await (const child of handle.values()) {
            const childPath = `${path}/${child.name}`
            const relative = relativePath(root, childPath)
            if (isLeftOut(rules, relative, child.kind === 'directory')) continue
            if (child.kind === 'directory') {
              entries.push({ type: 'directory', path: childPath, modified: 0 })
              options.onDirectory(childPath, child)
              next.push({ path: childPath, handle: child })
            } else if (fileStat) {
              files.push(fileStat(childPath, child).then((file) => void entries.push(file)))
            } else {
              options.onUnstated(childPath, child)
              entries.push({ type: 'file', path: childPath, size: 0, modified: 0 })
            }
          }
          await Promise.all(files)
        }),
      )
    }
    level = next
  }
  return entries
}

/** The rules of the folder's root `.gitignore` (none without one); `failure` turns a DOMException into what is thrown. */
export async function readRules(folder: DirectoryHandle, failure: (error: unknown) => unknown): Promise<IgnoreRule[]> {
  const handle = await folder.getFileHandle('.gitignore').catch((error: unknown) => {
    const kind = domErrorName(error)
    if (kind === 'NotFoundError' || kind === 'TypeMismatchError') return undefined
    throw failure(error)
  })
  if (!handle) return []
  return parseGitignore(await (await handle.getFile()).text())
}

export function sameRules(a: readonly IgnoreRule[], b: readonly IgnoreRule[]): boolean {
  return JSON.stringify(a.map((rule) => rule.pattern)) === JSON.stringify(b.map((rule) => rule.pattern))
}

/** How a fresh scan differs from the index: files whose size or time changed, folders new to it, paths gone. */
export interface ScanDifference {
  changed: DiskFile[]
  directories: DiskEntry[]
  /** Only the topmost path of a removed folder. */
  removed: string[]
}

export function compareScan(index: Pick<FileIndex<DiskEntry>, 'get' | 'subtree'>, root: string, entries: readonly DiskEntry[]): ScanDifference {
  const found = new Set(entries.map((entry) => entry.path))
  const difference: ScanDifference = { changed: [], directories: [], removed: [] }
  for (const entry of entries) {
    const known = index.get(entry.path)
    if (entry.type === 'directory') {
      if (!known) difference.directories.push(entry)
    } else if (known?.type !== 'file' || known.size !== entry.size || known.modified !== entry.modified) {
      difference.changed.push(entry)
    }
  }
  for (const entry of index.subtree(root)) {
    if (entry.path === root || found.has(entry.path)) continue
    // The subtree lists parents first, so a removed folder's contents follow it.
    if (difference.removed.some((path) => isInside(path, entry.path))) continue
    difference.removed.push(entry.path)
  }
  return difference
}
