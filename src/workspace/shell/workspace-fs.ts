import type { BufferEncoding, FileContent, FsStat, IFileSystem } from 'just-bash'
import { normalizePath, resolvePath } from '../path'
import { WorkspaceError, type FileStat, type Workspace, type WorkspaceErrorCode } from '../workspace'

/** The filesystem just-bash needs, over a workspace's own files: `paths()` answers its synchronous path listing. */
export type ShellFiles = Pick<Workspace, 'readFile' | 'writeFile' | 'list' | 'stat' | 'remove' | 'mkdir'> & { paths?: () => string[] }

type Encoding = BufferEncoding | { encoding?: BufferEncoding | null } | null | undefined

const ERRNO: Record<WorkspaceErrorCode, string> = {
  'not-found': 'ENOENT: no such file or directory',
  'is-directory': 'EISDIR: illegal operation on a directory',
  'not-directory': 'ENOTDIR: not a directory',
  exists: 'EEXIST: file already exists',
  'not-empty': 'ENOTEMPTY: directory not empty',
  'invalid-path': 'EINVAL: invalid argument',
  unavailable: 'EIO: i/o error',
}

/** A Node-style error (`ENOENT: no such file or directory, open '/x'`), the form just-bash's commands read. */
class FsError extends Error {
  override name = 'FsError'
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

function fail(code: WorkspaceErrorCode, operation: string, path: string): never {
  const text = ERRNO[code]
  throw new FsError(text.slice(0, text.indexOf(':')), `${text}, ${operation} '${path}'`)
}

/** Runs a workspace operation and rethrows its `WorkspaceError` in the form just-bash expects. */
async function node<T>(operation: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof WorkspaceError) fail(error.code, operation, path)
    throw error
  }
}

function encodingOf(options: Encoding): BufferEncoding | undefined {
  if (typeof options === 'string') return options
  return options?.encoding ?? undefined
}

/** The one device a shell script needs: it swallows writes and reads as empty (not stored). */
const NULL_DEVICE = '/dev/null'
const NULL_STAT: FsStat = {
  isFile: true,
  isDirectory: false,
  isSymbolicLink: false,
  mode: 0o666,
  size: 0,
  mtime: new Date(0),
  identity: NULL_DEVICE,
}

const BYTE_ENCODINGS = new Set<BufferEncoding>(['binary', 'latin1'])

function toBytes(content: FileContent, encoding: BufferEncoding | undefined): Uint8Array {
  if (typeof content !== 'string') return content
  if (encoding && BYTE_ENCODINGS.has(encoding)) return Uint8Array.from(content, (char) => char.charCodeAt(0) & 0xff)
  if (encoding === 'base64') return Uint8Array.from(atob(content), (char) => char.charCodeAt(0))
  if (encoding === 'hex') return Uint8Array.from(content.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16))
  return new TextEncoder().encode(content)
}

function latin1(bytes: Uint8Array): string {
  let text = ''
  for (let index = 0; index < bytes.length; index += 0x8000) text += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return text
}

function toFsStat(stat: FileStat): FsStat {
  const directory = stat.type === 'directory'
  return {
    isFile: !directory,
    isDirectory: directory,
    isSymbolicLink: false,
    mode: directory ? 0o755 : 0o644,
    size: stat.size,
    mtime: new Date(stat.modified),
    // Without links a path is a file's identity: what `cp` and `mv` use to refuse copying a file onto itself.
    identity: stat.path,
  }
}

/**
 * just-bash's `IFileSystem` over the workspace itself: every command reads the project's stored files and writes
 * through `writeFile`/`remove`/`mkdir`, the path every other tool takes, so watchers, the file tree and step
 * snapshots see a command's changes. There are no symlinks or permission bits: a stored file has neither. A write
 * makes missing parent directories, as the workspace (and just-bash's own in-memory filesystem) does.
 */
export function createWorkspaceFs(files: ShellFiles): IFileSystem {
  const statOf = async (operation: string, path: string): Promise<FileStat> => {
    const stat = await files.stat(path)
    if (!stat) fail('not-found', operation, path)
    return stat
  }

  const copy = async (from: string, to: string, recursive: boolean): Promise<void> => {
    const source = await statOf('cp', from)
    if (source.type === 'file') {
      const data = await node('cp', from, () => files.readFile(from))
      return node('cp', to, () => files.writeFile(to, data))
    }
    if (!recursive) fail('is-directory', 'cp', from)
    if (to === from || to.startsWith(`${from}/`)) throw new FsError('EINVAL', `EINVAL: cannot copy a directory into itself, cp '${from}' -> '${to}'`)
    await node('cp', to, () => files.mkdir(to, { recursive: true }))
    for (const entry of await node('cp', from, () => files.list(from))) await copy(entry.path, `${to}/${entry.name}`, true)
  }

  const fs: IFileSystem = {
    async readFile(path, options?: Encoding) {
      if (path === NULL_DEVICE) return ''
      const data = await node('open', path, () => files.readFile(path))
      const encoding = encodingOf(options)
      if (encoding && BYTE_ENCODINGS.has(encoding)) return latin1(data)
      return new TextDecoder().decode(data)
    },
    async readFileBuffer(path) {
      if (path === NULL_DEVICE) return new Uint8Array()
      return node('open', path, () => files.readFile(path))
    },
    async readFileBytes(path) {
      if (path === NULL_DEVICE) return '' as never
      return latin1(await node('open', path, () => files.readFile(path))) as never
    },
    async writeFile(path, content, options?: Encoding) {
      if (path === NULL_DEVICE) return
      await node('open', path, () => files.writeFile(path, toBytes(content, encodingOf(options))))
    },
    async appendFile(path, content, options?: Encoding) {
      if (path === NULL_DEVICE) return
      const existing = await files.stat(path)
      if (existing?.type === 'directory') fail('is-directory', 'open', path)
      const added = toBytes(content, encodingOf(options))
      // A redirection opens its file with an empty append: nothing changed, nothing to tell the watchers.
      if (existing && added.length === 0) return
      const before = existing ? await node('open', path, () => files.readFile(path)) : new Uint8Array()
      const joined = new Uint8Array(before.length + added.length)
      joined.set(before)
      joined.set(added, before.length)
      await node('open', path, () => files.writeFile(path, joined))
    },
    async exists(path) {
      if (path === NULL_DEVICE) return true
      return (await files.stat(path)) !== undefined
    },
    async stat(path) {
      if (path === NULL_DEVICE) return NULL_STAT
      return toFsStat(await statOf('stat', path))
    },
    async lstat(path) {
      if (path === NULL_DEVICE) return NULL_STAT
      return toFsStat(await statOf('lstat', path))
    },
    async mkdir(path, options) {
      await node('mkdir', path, () => files.mkdir(path, options))
    },
    async readdir(path) {
      return (await node('scandir', path, () => files.list(path))).map((entry) => entry.name)
    },
    async readdirWithFileTypes(path) {
      return (await node('scandir', path, () => files.list(path))).map((entry) => ({
        name: entry.name,
        isFile: entry.type === 'file',
        isDirectory: entry.type === 'directory',
        isSymbolicLink: false,
      }))
    },
    async rm(path, options) {
      if (options?.force && !(await files.stat(path))) return
      await node('rm', path, () => files.remove(path, { recursive: options?.recursive }))
    },
    async cp(from, to, options) {
      await copy(from, to, options?.recursive ?? false)
    },
    async mv(from, to) {
      if (from === to) return
      await copy(from, to, true)
      await node('rename', from, () => files.remove(from, { recursive: true }))
    },
    resolvePath(base, path) {
      return resolvePath(base, path)
    },
    getAllPaths() {
      return files.paths?.() ?? []
    },
    async chmod(path) {
      await statOf('chmod', path)
    },
    async symlink(_target, linkPath) {
      throw new FsError('EPERM', `EPERM: operation not permitted (the workspace has no symbolic links), symlink '${linkPath}'`)
    },
    async link(_existing, newPath) {
      throw new FsError('EPERM', `EPERM: operation not permitted (the workspace has no hard links), link '${newPath}'`)
    },
    async readlink(path) {
      await statOf('readlink', path)
      throw new FsError('EINVAL', `EINVAL: invalid argument, readlink '${path}'`)
    },
    async realpath(path) {
      await statOf('realpath', path)
      return normalizePath(path)
    },
    async utimes(path) {
      // A stored file's time is when it was last written: rewriting the same bytes is how `touch` moves it.
      const stat = await statOf('utime', path)
      if (stat.type === 'file') await node('utime', path, async () => files.writeFile(path, await files.readFile(path)))
    },
  }
  return fs
}
