import { WorkspaceError, type FileStat } from '../workspace'
import type { ProgramFiles } from '../runtime/program'

/** A Node-style error: isomorphic-git tells a missing file from a real failure by `code`. */
export class FsError extends Error {
  constructor(
    readonly code: string,
    path: string,
    reason: string,
  ) {
    super(`${code}: ${reason}, '${path}'`)
    this.name = 'FsError'
  }
}

/** Thrown by every file operation once the command was stopped, so a long add or checkout ends promptly. */
export class GitAborted extends Error {
  override name = 'GitAborted'
}

const CODES: Record<string, [string, string]> = {
  'not-found': ['ENOENT', 'no such file or directory'],
  'is-directory': ['EISDIR', 'illegal operation on a directory'],
  'not-directory': ['ENOTDIR', 'not a directory'],
  exists: ['EEXIST', 'file already exists'],
  'not-empty': ['ENOTEMPTY', 'directory not empty'],
}

function toFsError(error: unknown, path: string): unknown {
  if (!(error instanceof WorkspaceError)) return error
  const [code, reason] = CODES[error.code] ?? ['EIO', error.message]
  return new FsError(code, path, reason)
}

/** What isomorphic-git reads from a stat: the type tests, and the fields it keeps in the index to notice changes. */
export interface GitStats {
  type: 'file' | 'dir'
  mode: number
  size: number
  ino: number
  uid: number
  gid: number
  dev: number
  mtimeMs: number
  ctimeMs: number
  isFile(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
}

function toStats(stat: FileStat): GitStats {
  const file = stat.type === 'file'
  return {
    type: file ? 'file' : 'dir',
    mode: file ? 0o100644 : 0o40000,
    size: stat.size,
    ino: 0,
    uid: 0,
    gid: 0,
    dev: 0,
    mtimeMs: stat.modified,
    ctimeMs: stat.modified,
    isFile: () => file,
    isDirectory: () => !file,
    isSymbolicLink: () => false,
  }
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * isomorphic-git's `fs` (its promises flavour) over the project's workspace. The workspace has no symlinks and no
 * modes: every file is a regular 0644 file, and a symlink checked out of a repository becomes a file holding its
 * target, as git does with `core.symlinks=false`.
 */
export function createGitFs(files: ProgramFiles, signal: AbortSignal) {
  const guard = async <T>(path: string, run: () => Promise<T>): Promise<T> => {
    if (signal.aborted) throw new GitAborted('stopped')
    try {
      return await run()
    } catch (error) {
      throw toFsError(error, path)
    }
  }
  const statOf = (path: string) =>
    guard(path, async () => {
      const stat = await files.stat(path)
      if (!stat) throw new FsError('ENOENT', path, 'no such file or directory')
      return toStats(stat)
    })
  const promises = {
    readFile: (path: string, options?: { encoding?: string } | string) =>
      guard(path, async () => {
        const bytes = await files.readFile(path)
        const encoding = typeof options === 'string' ? options : options?.encoding
        return encoding === 'utf8' || encoding === 'utf-8' ? decoder.decode(bytes) : bytes
      }),
    writeFile: (path: string, data: Uint8Array | string) =>
      guard(path, async () => {
        const parent = path.slice(0, path.lastIndexOf('/')) || '/'
        const stat = await files.stat(parent)
        // The workspace makes missing parents; Node's fs (which isomorphic-git expects) does not.
        if (!stat) throw new FsError('ENOENT', path, 'no such file or directory')
        if (stat.type !== 'directory') throw new FsError('ENOTDIR', path, 'not a directory')
        await files.writeFile(path, typeof data === 'string' ? encoder.encode(data) : data)
      }),
    unlink: (path: string) =>
      guard(path, async () => {
        const stat = await files.stat(path)
        if (!stat) throw new FsError('ENOENT', path, 'no such file or directory')
        if (stat.type === 'directory') throw new FsError('EISDIR', path, 'illegal operation on a directory')
        await files.remove(path)
      }),
    readdir: (path: string) => guard(path, async () => (await files.list(path)).map((entry) => entry.name)),
    mkdir: (path: string) => guard(path, () => files.mkdir(path)),
    rmdir: (path: string) =>
      guard(path, async () => {
        const stat = await files.stat(path)
        if (!stat) throw new FsError('ENOENT', path, 'no such file or directory')
        if (stat.type !== 'directory') throw new FsError('ENOTDIR', path, 'not a directory')
        if ((await files.list(path)).length > 0) throw new FsError('ENOTEMPTY', path, 'directory not empty')
        await files.remove(path)
      }),
    stat: statOf,
    lstat: statOf,
    readlink: (path: string) => guard(path, async () => {
      throw new FsError('EINVAL', path, 'invalid argument')
    }),
    symlink: (target: string, path: string) => guard(path, () => files.writeFile(path, encoder.encode(target))),
    chmod: (path: string) => guard(path, async () => {
      if (!(await files.stat(path))) throw new FsError('ENOENT', path, 'no such file or directory')
    }),
  }
  return { promises }
}

export type GitFs = ReturnType<typeof createGitFs>
