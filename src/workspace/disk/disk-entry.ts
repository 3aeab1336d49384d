import { basename } from '../path'
import type { FileStat } from '../workspace'

/** What the index knows of a path of the folder: a file's size and time as last read from disk. */
export type DiskEntry = { type: 'file'; path: string; size: number; modified: number } | { type: 'directory'; path: string; modified: number }
export type DiskFile = Extract<DiskEntry, { type: 'file' }>

/** A file's contents are kept under its path, size and time, so a file changed on disk is read again. */
export function cacheKey(file: DiskFile): string {
  return `${file.path}\0${file.size}\0${file.modified}`
}

export function toStat(entry: DiskEntry): FileStat {
  return {
    path: entry.path,
    name: basename(entry.path),
    type: entry.type,
    size: entry.type === 'file' ? entry.size : 0,
    modified: entry.modified,
  }
}

/** The order glob and grep answer in, as the stored workspace does: the newest first, then by path. */
export function newestFirst(files: DiskFile[]): DiskFile[] {
  return [...files].sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
