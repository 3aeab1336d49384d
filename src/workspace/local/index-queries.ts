import { matchesGlob } from '../glob'
import { basename, normalizePath, relativePath } from '../path'
import type { FileStat, GrepMatch } from '../workspace'
import { decodeSearchText, isBinary } from './text'

/*
 * What the stored workspace and the folder on disk answer from their index alike (stat, glob, grep), so both give
 * the same results in the same order; they differ only in how a file's bytes are read.
 */

/** What the queries need of an index entry: both workspaces' entries have this shape. */
export type IndexedEntry = { type: 'file'; path: string; size: number; modified: number } | { type: 'directory'; path: string; modified: number }
type IndexedFile = Extract<IndexedEntry, { type: 'file' }>

export function toStat(entry: IndexedEntry): FileStat {
  return {
    path: entry.path,
    name: basename(entry.path),
    type: entry.type,
    size: entry.type === 'file' ? entry.size : 0,
    modified: entry.modified,
  }
}

/** The order glob and grep answer in: the newest first, then by path, so results are stable. */
export function newestFirst<File extends IndexedFile>(files: File[]): File[] {
  return [...files].sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The paths of `files` (all under `base`) that match `pattern`: absolute, or relative to `base`. */
export function globFiles(files: IndexedFile[], pattern: string, base: string, limit = Infinity): string[] {
  const absolute = pattern.startsWith('/')
  const matching = files.filter((file) => (absolute ? matchesGlob(normalizePath(pattern), file.path) : matchesGlob(pattern, relativePath(base, file.path))))
  return newestFirst(matching)
    .slice(0, limit)
    .map((file) => file.path)
}

/**
 * The lines of `candidates` that match `expression`, newest file first, at most `limit`. Binary files are skipped, and
 * so is a file `read` cannot give (undefined), e.g. one removed since the index saw it.
 */
export async function grepFiles<File extends IndexedFile>(
  candidates: File[],
  expression: RegExp,
  read: (file: File) => Promise<Uint8Array | undefined>,
  limit = Infinity,
): Promise<GrepMatch[]> {
  const matches: GrepMatch[] = []
  for (const file of newestFirst(candidates)) {
    if (matches.length >= limit) break
    const data = await read(file)
    if (!data || isBinary(data)) continue
    const lines = decodeSearchText(data).split(/\r?\n/)
    // The empty string after a final newline is not a line.
    if (lines.at(-1) === '') lines.pop()
    for (const [index, text] of lines.entries()) {
      if (!expression.test(text)) continue
      matches.push({ path: file.path, line: index + 1, text, modified: file.modified })
      if (matches.length >= limit) break
    }
  }
  return matches
}

/** grep's candidates: the file itself, or the files under a directory that match `include` (relative to it). */
export function grepCandidates<File extends IndexedFile>(target: File | { type: 'directory'; path: string }, filesUnder: (directory: string) => File[], include?: string): File[] {
  if (target.type === 'file') return [target]
  return filesUnder(target.path).filter((file) => !include || matchesGlob(include, relativePath(target.path, file.path)))
}
