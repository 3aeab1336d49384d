import { log } from '../../core/log'
import { parseGitignore, type IgnoreRule } from '../../core/gitignore'
import { matchesGlob } from '../glob'
import { basename, dirname, isInside, normalizePath, relativePath, resolvePath } from '../path'
import {
  WORKSPACE_ROOT,
  WorkspaceError,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type GrepMatch,
  type WorkspaceChange,
} from '../workspace'
import { BlobCache } from '../local/blob-cache'
import { FileIndex } from '../local/file-index'
import { hashContent } from '../local/hash'
import { StoredWorkspace, type LocalWorkspace } from '../local/stored-workspace'
import { decodeSearchText, decodeText, encodeText, isBinary } from '../local/text'
import { createWriteQueue } from '../local/write-queue'
import { domErrorName, type DirectoryHandle, type FileHandle } from './directory-handle'
import { isLeftOut } from './left-out'
import { createScratchStorage } from './scratch-storage'
import { watchFolder, type FolderWatch } from './folder-watch'

export interface DiskWorkspaceOptions {
  /** The folder the user opened; the project's root (`/workspace`) is this folder. */
  handle: DirectoryHandle
  /** Every change, the agent's and those found on disk, after it is there (the worker forwards them to file trees). */
  onChange?: (change: WorkspaceChange) => void
  /** Files another program changed on disk, as they are found (the Changes view shows them as "changed outside"). */
  onOutsideChange?: (changes: OutsideChange[]) => void
  /** False in tests that want every check to scan: the browser's FileSystemObserver, where it exists, is used otherwise. */
  observe?: boolean
  /** Without an observer, how long a whole scan stands for a new one (default a second; tests use 0). */
  scanReuseMs?: number
}

/** A file another program wrote, added or removed; `before`: its content hash when this workspace last knew it. */
export interface OutsideChange {
  path: string
  before?: string
}

type DiskEntry = { type: 'file'; path: string; size: number; modified: number } | { type: 'directory'; path: string; modified: number }
type DiskFile = Extract<DiskEntry, { type: 'file' }>

/** Contents kept after a read, keyed by path, size and time so a file changed on disk is read again. */
const CACHE_BYTES = 32 * 1024 * 1024
const SCAN_CONCURRENCY = 16
const HASH_CONCURRENCY = 16
const STAT_BATCH = 64
/** Without an observer, a whole scan that ended this recently stands for a new one. */
const SCAN_REUSE_MS = 1000

/**
 * A project that *is* a folder on disk (File System Access API). Reads, writes and commands go to the folder; an
 * in-memory index of what the project tracks (not `node_modules`, `.git` or what `.gitignore` names, see
 * `left-out.ts`) answers listings, glob and grep, and is brought up to date by `refresh()` (a scan comparing each
 * file's size and time, skipped while the browser's file-system observer reports nothing). `stat` and reads always
 * ask the disk, so the read-before-edit rule (tools/file-times.ts) sees a file another editor changed. Paths outside
 * the root (a command's `/tmp`) live in memory for the page's lifetime.
 */
export class DiskWorkspace implements LocalWorkspace {
  readonly backend = 'local'
  readonly root = WORKSPACE_ROOT
  readonly name: string
  private index = new FileIndex<DiskEntry>(['/', WORKSPACE_ROOT])
  private rules: IgnoreRule[] = []
  /** Content hashes by path, valid while the file's size and time are the ones recorded. */
  private readonly hashes = new Map<string, { size: number; modified: number; hash: string }>()
  private readonly contents = new BlobCache(CACHE_BYTES)
  private readonly directories = new Map<string, DirectoryHandle>()
  /** File handles found, by path (a handle names a path: it still works after another program rewrote the file). */
  private readonly fileHandles = new Map<string, FileHandle>()
  private readonly scratch = new StoredWorkspace({ storage: createScratchStorage(), entries: [] })
  private readonly listeners = new Set<(change: WorkspaceChange) => void>()
  private readonly enqueue = createWriteQueue()
  private readonly handle: DirectoryHandle
  private readonly options: DiskWorkspaceOptions
  private watch_: FolderWatch | undefined
  private scanning: Promise<void> | undefined
  /** Files the first scan found but has not read the size and time of yet (read in the background, or when listed). */
  private readonly unstated = new Map<string, FileHandle>()
  private stating: Promise<void> = Promise.resolve()
  /** When the last whole scan ended (the fallback without an observer reuses one for a moment). */
  private scannedAt = -Infinity

  constructor(options: DiskWorkspaceOptions) {
    this.options = options
    this.handle = options.handle
    this.name = options.handle.name
    this.directories.set(WORKSPACE_ROOT, options.handle)
  }

  /** Reads the folder's index; the workspace is usable once this resolves. */
  async open(): Promise<this> {
    // Observed before the scan: a change made while it runs is reported, not lost.
    if (this.options.observe !== false) {
      this.watch_ = watchFolder(this.handle, () => void this.refresh().catch((error) => log.warn('A folder re-scan failed', error)))
      await this.watch_?.started
    }
    // Names first, so the tree shows at once; sizes and times (a read of each file's metadata, the slow part on a big
    // folder) follow in the background, and whatever needs them (glob, grep, snapshots) waits for them.
    const { entries, rules } = await this.scan(false)
    this.rules = rules
    for (const entry of entries) this.index.set(entry)
    this.watch_?.scanned()
    this.scannedAt = Date.now()
    this.stating = this.statUnstated().catch((error) => log.warn('Could not read the sizes and times of the folder', error))
    return this
  }

  /** Reads the size and time of the files the first scan only named. */
  private async statUnstated(only?: string): Promise<void> {
    const pending = [...this.unstated].filter(([path]) => only === undefined || dirname(path) === only)
    for (let start = 0; start < pending.length; start += STAT_BATCH) {
      await Promise.all(
        pending.slice(start, start + STAT_BATCH).map(async ([path, handle]) => {
          const file = await this.fileStat(path, handle).catch(() => undefined)
          if (!this.unstated.delete(path) || !file) return
          if (this.index.get(path)?.type === 'file') this.index.set(file)
        }),
      )
    }
  }

  /**
   * A file's size and time as just read from disk, into the index: true when that is a change another program made
   * (the index knew other ones); a file whose first size was still unread is not one.
   */
  private settle(file: DiskFile): boolean {
    if (this.unstated.delete(file.path)) {
      if (this.index.get(file.path)?.type === 'file') this.index.set(file)
      return false
    }
    const known = this.index.get(file.path)
    return known?.type === 'file' && (known.size !== file.size || known.modified !== file.modified)
  }

  dispose(): void {
    this.watch_?.stop()
  }

  /**
   * Brings the index up to date with the disk: files another program wrote, added or removed are announced as
   * changes (and to `onOutsideChange`). Cheap when nothing changed: one size-and-time look per file, and none at all
   * while a working observer has reported nothing.
   */
  refresh(): Promise<void> {
    // Calls while a look runs share it: its result is at least as new as theirs would be.
    this.scanning ??= this.enqueue(() => this.look()).finally(() => (this.scanning = undefined))
    return this.scanning
  }

  /** A whole scan, or only the paths the observer reported, or nothing when it reported none. */
  private async look(): Promise<void> {
    const news = this.watch_?.take() ?? { type: 'everything' }
    // Without an observer, a snapshot's listing of every folder would scan the whole folder once per folder: a
    // scan that ended a moment ago answers for them all.
    if (news.type === 'everything' && !this.watch_ && Date.now() - this.scannedAt < (this.options.scanReuseMs ?? SCAN_REUSE_MS)) return
    if (news.type === 'everything') return this.rescan()
    if (news.type === 'none') return
    const changed: DiskFile[] = []
    const removed: string[] = []
    for (const relative of news.paths) {
      const path = relative === '' ? this.root : `${this.root}/${relative}`
      if (path === this.root || basename(path) === '.gitignore') return this.rescan()
      this.fileHandles.delete(path)
      this.directories.delete(path)
      const found = await this.diskFile(path)
      const known = this.index.get(path)
      if (!found) {
        if (known) removed.push(path)
        continue
      }
      // A folder that appeared (a checkout, an unzip): its contents are read by a whole scan.
      if (found === 'directory') {
        if (!known && this.isTracked(path, true)) return this.rescan()
        continue
      }
      const file: DiskFile = { type: 'file', path, size: found.size, modified: found.lastModified }
      if (known?.type !== 'file' || this.settle(file)) changed.push(file)
    }
    this.noticeOutside(changed, removed)
  }

  async readFile(path: string): Promise<Uint8Array> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.readFile(target)
    return (await this.read(target)).slice()
  }

  async readText(path: string): Promise<string> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.readText(target)
    return decodeText(await this.read(target))
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.writeFile(target, content)
    const data = typeof content === 'string' ? encodeText(content) : content.slice()
    await this.enqueue(async () => {
      if (target === this.root) throw new WorkspaceError('is-directory', target, `Is a directory: ${target}`)
      const { directory, created } = await this.parentOf(target, true)
      const handle = await directory.getFileHandle(basename(target), { create: true }).catch((error: unknown) => {
        throw this.failure(error, target, { TypeMismatchError: ['is-directory', `Is a directory: ${target}`] })
      })
      const writable = await handle.createWritable().catch((error: unknown) => {
        throw this.failure(error, target)
      })
      await writable.write(data)
      await writable.close()
      const file = await this.fileStat(target, handle)
      this.hashes.set(target, { size: file.size, modified: file.modified, hash: await hashContent(data) })
      this.contents.set(cacheKey(file), data)
      for (const directory of created) this.record({ type: 'directory', path: directory, modified: file.modified })
      this.record(file)
      if (basename(target) === '.gitignore' && dirname(target) === this.root) await this.rescan()
    })
  }

  async list(path: string): Promise<FileStat[]> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.list(target)
    await this.refresh()
    const entry = this.index.get(target)
    if (entry?.type === 'file') throw new WorkspaceError('not-directory', target, `Not a directory: ${target}`)
    if (entry) {
      await this.statUnstated(target)
      return this.index.list(target).map(toStat)
    }
    // Not indexed: a left-out folder (node_modules, .git), read from disk as it is.
    const directory = await this.directoryAt(target, false).catch((error: unknown) => {
      if (error instanceof WorkspaceError && error.code === 'not-found') throw new WorkspaceError('not-found', target, `Directory not found: ${target}`)
      throw error
    })
    const stats: FileStat[] = []
    for await (const child of directory.values()) {
      const childPath = `${target}/${child.name}`
      stats.push(child.kind === 'file' ? toStat(await this.fileStat(childPath, child)) : toStat({ type: 'directory', path: childPath, modified: 0 }))
    }
    return stats.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.stat(target)
    if (target === this.root) return toStat(this.index.get(target)!)
    const found = await this.diskFile(target)
    if (!found) {
      if (this.index.get(target)) this.forget(target, true)
      return undefined
    }
    if (found === 'directory') return toStat(this.index.get(target) ?? { type: 'directory', path: target, modified: 0 })
    const file: DiskFile = { type: 'file', path: target, size: found.size, modified: found.lastModified }
    // The disk is newer than the index (no observer, no scan yet): the index learns it here, and so do file trees.
    if (this.settle(file)) this.noticeOutside([file], [])
    return toStat(file)
  }

  async remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.remove(target, options)
    await this.enqueue(async () => {
      if (target === this.root) throw new WorkspaceError('invalid-path', target, `Cannot remove ${target}: it is the workspace root`)
      const found = await this.lookup(target)
      if (!found) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      if (found.kind === 'directory' && !options?.recursive && !(await isEmpty(found))) {
        throw new WorkspaceError('not-empty', target, `Directory not empty: ${target}`)
      }
      const { directory } = await this.parentOf(target, false)
      await directory.removeEntry(basename(target), { recursive: options?.recursive ?? false }).catch((error: unknown) => {
        throw this.failure(error, target, { InvalidModificationError: ['not-empty', `Directory not empty: ${target}`] })
      })
      for (const key of [...this.directories.keys()]) if (key !== this.root && isInside(target, key)) this.directories.delete(key)
      for (const key of [...this.fileHandles.keys()]) if (isInside(target, key)) this.fileHandles.delete(key)
      this.forget(target, false)
    })
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.mkdir(target, options)
    await this.enqueue(async () => {
      const existing = await this.lookup(target)
      if (existing?.kind === 'directory' && options?.recursive) return
      if (existing) throw new WorkspaceError('exists', target, `File exists: ${target}`)
      const created: string[] = []
      // Without -p the parent must exist; the directory itself is always made.
      if (!options?.recursive) await this.parentOf(target, false)
      await this.directoryAt(target, true, created).catch((error: unknown) => {
        throw retarget(error, target)
      })
      for (const directory of created) this.record({ type: 'directory', path: directory, modified: 0 })
    })
  }

  async glob(pattern: string, options?: { cwd?: string; limit?: number }): Promise<string[]> {
    await this.refresh()
    await this.stating
    const base = this.indexedDirectory(this.resolve(options?.cwd ?? this.root))
    const absolute = pattern.startsWith('/')
    const files = this.filesUnder(base).filter((file) =>
      absolute ? matchesGlob(normalizePath(pattern), file.path) : matchesGlob(pattern, relativePath(base, file.path)),
    )
    return newestFirst(files)
      .slice(0, options?.limit ?? Infinity)
      .map((file) => file.path)
  }

  async grep(pattern: string, options?: { path?: string; include?: string; limit?: number }): Promise<GrepMatch[]> {
    await this.refresh()
    await this.stating
    const expression = new RegExp(pattern)
    const target = this.resolve(options?.path ?? this.root)
    const entry = this.index.get(target)
    if (!entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
    const include = options?.include
    const candidates =
      entry.type === 'file'
        ? [entry]
        : this.filesUnder(target).filter((file) => !include || matchesGlob(include, relativePath(target, file.path)))
    const limit = options?.limit ?? Infinity
    const matches: GrepMatch[] = []
    for (const file of newestFirst(candidates)) {
      if (matches.length >= limit) break
      const data = await this.read(file.path).catch(() => undefined)
      if (!data || isBinary(data)) continue
      const lines = decodeSearchText(data).split(/\r?\n/)
      if (lines.at(-1) === '') lines.pop()
      for (const [index, text] of lines.entries()) {
        if (!expression.test(text)) continue
        matches.push({ path: file.path, line: index + 1, text, modified: file.modified })
        if (matches.length >= limit) break
      }
    }
    return matches
  }

  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    await this.refresh()
    const { runShell } = await import('../shell/run')
    const result = await runShell(command, {
      fs: this,
      cwd: this.resolve(options.cwd ?? this.root),
      env: options.env,
      signal: options.signal,
      timeout: options.timeout,
      onOutput: options.onOutput,
      onNotice: options.onNotice,
    })
    return { ...result, runtime: 'offline' }
  }

  /** Every path the index holds, for the shell's synchronous listing (its glob fallback). */
  paths(): string[] {
    return [...this.index.subtree('/').map((entry) => entry.path), ...this.scratch.paths().filter((path) => !isInside(this.root, path))]
  }

  watch(listener: (change: WorkspaceChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Every indexed file's content hash. A file is read only when its size or time differ from those its hash was
   * taken at, so a snapshot of an unchanged folder reads nothing.
   */
  async manifest(): Promise<Record<string, string>> {
    await this.stating
    const manifest: Record<string, string> = {}
    const stale: DiskFile[] = []
    for (const file of this.filesUnder(this.root)) {
      const known = this.hashes.get(file.path)
      if (known && known.size === file.size && known.modified === file.modified) manifest[file.path] = known.hash
      else stale.push(file)
    }
    for (let start = 0; start < stale.length; start += HASH_CONCURRENCY) {
      await Promise.all(
        stale.slice(start, start + HASH_CONCURRENCY).map(async (file) => {
          const data = await this.read(file.path).catch(() => undefined)
          // Gone since the index saw it: the next scan removes it.
          if (!data) return
          const current = this.index.get(file.path)
          if (current?.type !== 'file') return
          const hash = await hashContent(data)
          this.hashes.set(file.path, { size: current.size, modified: current.modified, hash })
          manifest[file.path] = hash
        }),
      )
    }
    return manifest
  }

  private resolve(path: string): string {
    if (path.includes('\0')) throw new WorkspaceError('invalid-path', path, `Invalid path (contains a NUL byte): ${path}`)
    return resolvePath(this.root, path)
  }

  private isOwn(path: string): boolean {
    return isInside(this.root, path)
  }

  /** The file at a path as the disk has it now; a cached handle whose file is gone is looked up once more. */
  private async diskFile(target: string): Promise<File | 'directory' | undefined> {
    for (const retry of [false, true]) {
      const found = await this.lookup(target)
      if (!found) return undefined
      if (found.kind === 'directory') return 'directory'
      try {
        return await found.getFile()
      } catch (error) {
        this.fileHandles.delete(target)
        if (retry || domErrorName(error) !== 'NotFoundError') throw this.failure(error, target)
      }
    }
    return undefined
  }

  /** The file's bytes from disk (or from the cache, when its size and time are those cached). */
  private async read(target: string): Promise<Uint8Array> {
    const file = await this.diskFile(target)
    if (!file) throw new WorkspaceError('not-found', target, `File not found: ${target}`)
    if (file === 'directory') throw new WorkspaceError('is-directory', target, `Is a directory: ${target}`)
    const stat: DiskFile = { type: 'file', path: target, size: file.size, modified: file.lastModified }
    if (this.settle(stat)) this.noticeOutside([stat], [])
    const cached = this.contents.get(cacheKey(stat))
    if (cached) return cached
    const data = new Uint8Array(await file.arrayBuffer())
    this.contents.set(cacheKey(stat), data)
    return data
  }

  private async fileStat(path: string, handle: FileHandle): Promise<DiskFile> {
    const file = await handle.getFile().catch((error: unknown) => {
      throw this.failure(error, path)
    })
    return { type: 'file', path, size: file.size, modified: file.lastModified }
  }

  /** The handle at a path, or undefined when nothing (or a file in the way) is there. */
  private async lookup(target: string): Promise<DirectoryHandle | FileHandle | undefined> {
    if (target === this.root) return this.handle
    const cached = this.fileHandles.get(target)
    if (cached) return cached
    // A tracked path the index lacks while the observer vouches for the folder is not there: no disk call (a step
    // asks for AGENTS.md and the like every time).
    const relative = relativePath(this.root, target)
    if (this.watch_?.vouchesFor(relative) && this.index.get(dirname(target))?.type === 'directory' && !this.index.get(target)) {
      if (this.isTracked(target, false) && this.isTracked(target, true)) return undefined
    }
    const parent = await this.directoryAt(dirname(target), false).catch((error: unknown) => {
      if (error instanceof WorkspaceError && (error.code === 'not-found' || error.code === 'not-directory')) return undefined
      throw error
    })
    if (!parent) return undefined
    const name = basename(target)
    try {
      const handle = await parent.getFileHandle(name)
      this.fileHandles.set(target, handle)
      return handle
    } catch (error) {
      const kind = domErrorName(error)
      if (kind === 'NotFoundError') return undefined
      if (kind !== 'TypeMismatchError') throw this.failure(error, target)
    }
    return parent.getDirectoryHandle(name).catch((error: unknown) => {
      if (domErrorName(error) === 'NotFoundError') return undefined
      throw this.failure(error, target)
    })
  }

  /** The directory handle at a path, walking from the nearest one known; `create` makes missing ones. */
  private async directoryAt(target: string, create: boolean, created: string[] = []): Promise<DirectoryHandle> {
    const known = this.directories.get(target)
    if (known) return known
    const parent = await this.directoryAt(dirname(target), create, created)
    const name = basename(target)
    let directory: DirectoryHandle
    try {
      directory = await parent.getDirectoryHandle(name)
    } catch (error) {
      const kind = domErrorName(error)
      if (kind === 'TypeMismatchError') throw new WorkspaceError('not-directory', target, `Not a directory: ${target}`)
      if (kind !== 'NotFoundError') throw this.failure(error, target)
      if (!create) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      directory = await parent.getDirectoryHandle(name, { create: true }).catch((error: unknown) => {
        throw this.failure(error, target)
      })
      created.push(target)
    }
    this.directories.set(target, directory)
    return directory
  }

  /** The parent directory of `target`, made (with its own parents) when `create`; which directories were made. */
  private async parentOf(target: string, create: boolean): Promise<{ directory: DirectoryHandle; created: string[] }> {
    const created: string[] = []
    const directory = await this.directoryAt(dirname(target), create, created).catch((error: unknown) => {
      throw retarget(error, target)
    })
    return { directory, created }
  }

  private indexedDirectory(path: string): string {
    const entry = this.index.get(path)
    if (!entry) throw new WorkspaceError('not-found', path, `Directory not found: ${path}`)
    if (entry.type !== 'directory') throw new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    return path
  }

  private filesUnder(directory: string): DiskFile[] {
    return this.index.subtree(directory).filter((entry): entry is DiskFile => entry.type === 'file')
  }

  private isTracked(path: string, isDirectory: boolean): boolean {
    return path !== this.root && !isLeftOut(this.rules, relativePath(this.root, path), isDirectory)
  }

  /** An entry the workspace itself made: indexed (when tracked) and announced. */
  private record(entry: DiskEntry): void {
    this.unstated.delete(entry.path)
    if (!this.isTracked(entry.path, entry.type === 'directory')) return
    const known = this.index.get(entry.path)
    this.index.set(entry)
    if (entry.type === 'directory' && known) return
    this.emit(entry.type === 'file' ? { type: 'write', path: entry.path } : { type: 'mkdir', path: entry.path })
  }

  private forget(target: string, outside: boolean): void {
    const known = this.index.get(target)
    const gone = this.removedFiles(target)
    this.index.delete(target)
    if (!known) return
    this.emit({ type: 'remove', path: target })
    if (outside && gone.length > 0) this.options.onOutsideChange?.(gone)
  }

  /** The files under a path about to leave the index, with the hashes they had; their hashes are dropped. */
  private removedFiles(target: string): OutsideChange[] {
    const gone: OutsideChange[] = []
    for (const entry of this.index.subtree(target)) {
      if (entry.type === 'file') gone.push(withBefore(entry.path, this.hashes.get(entry.path)?.hash))
      this.hashes.delete(entry.path)
      this.unstated.delete(entry.path)
    }
    return gone
  }

  /** Files found changed on disk (and paths found gone) by something other than this workspace. */
  private noticeOutside(files: DiskFile[], removed: string[]): void {
    const changes: OutsideChange[] = []
    for (const file of files) {
      if (!this.isTracked(file.path, false)) continue
      // The hash kept is the one of the version before (its size and time no longer match): the diff's left side.
      changes.push(withBefore(file.path, this.hashes.get(file.path)?.hash))
      this.index.set(file)
      this.emit({ type: 'write', path: file.path })
    }
    for (const path of removed) {
      changes.push(...this.removedFiles(path))
      this.index.delete(path)
      this.emit({ type: 'remove', path })
    }
    if (changes.length > 0) this.options.onOutsideChange?.(changes)
  }

  /** Compares a fresh scan with the index and applies the difference. Runs in the write queue. */
  private async rescan(): Promise<void> {
    await this.stating
    const { entries, rules } = await this.scan(true)
    this.scannedAt = Date.now()
    const rulesChanged = JSON.stringify(rules.map((rule) => rule.pattern)) !== JSON.stringify(this.rules.map((rule) => rule.pattern))
    this.rules = rules
    const found = new Map(entries.map((entry) => [entry.path, entry]))
    const changed: DiskFile[] = []
    const removed: string[] = []
    for (const entry of entries) {
      const known = this.index.get(entry.path)
      if (entry.type === 'file' && (known?.type !== 'file' || known.size !== entry.size || known.modified !== entry.modified)) changed.push(entry)
      if (entry.type === 'directory' && !known) {
        this.index.set(entry)
        this.emit({ type: 'mkdir', path: entry.path })
      }
    }
    for (const entry of this.index.subtree(this.root)) {
      if (entry.path === this.root || found.has(entry.path)) continue
      // Only the topmost path of a removed folder is announced (the subtree lists parents first).
      if (removed.some((path) => isInside(path, entry.path))) continue
      removed.push(entry.path)
    }
    if (rulesChanged) {
      // What the project ignores changed: the index is rebuilt; the trees reload from the root.
      this.index = new FileIndex<DiskEntry>(['/', WORKSPACE_ROOT])
      for (const entry of entries) this.index.set(entry)
      this.emit({ type: 'mkdir', path: this.root })
      return
    }
    this.noticeOutside(changed, removed)
  }

  /**
   * Every tracked entry of the folder, with the root `.gitignore`'s rules it was read under. Without `stats`, files
   * are only named (size and time 0, their handles kept in `unstated`).
   */
  private async scan(stats: boolean): Promise<{ entries: DiskEntry[]; rules: IgnoreRule[] }> {
    const rules = await this.readRules()
    const entries: DiskEntry[] = []
    let level: { path: string; handle: DirectoryHandle }[] = [{ path: this.root, handle: this.handle }]
    while (level.length > 0) {
      const next: { path: string; handle: DirectoryHandle }[] = []
      for (let start = 0; start < level.length; start += SCAN_CONCURRENCY) {
        await Promise.all(
          level.slice(start, start + SCAN_CONCURRENCY).map(async ({ path, handle }) => {
            const files: Promise<void>[] = []
            for await (const child of handle.values()) {
              const childPath = `${path}/${child.name}`
              const relative = relativePath(this.root, childPath)
              if (isLeftOut(rules, relative, child.kind === 'directory')) continue
              if (child.kind === 'directory') {
                entries.push({ type: 'directory', path: childPath, modified: 0 })
                this.directories.set(childPath, child)
                next.push({ path: childPath, handle: child })
              } else if (stats) {
                files.push(this.fileStat(childPath, child).then((file) => void entries.push(file)))
              } else {
                this.unstated.set(childPath, child)
                entries.push({ type: 'file', path: childPath, size: 0, modified: 0 })
              }
            }
            await Promise.all(files)
          }),
        )
      }
      level = next
    }
    return { entries, rules }
  }

  private async readRules(): Promise<IgnoreRule[]> {
    const handle = await this.handle.getFileHandle('.gitignore').catch((error: unknown) => {
      const kind = domErrorName(error)
      if (kind === 'NotFoundError' || kind === 'TypeMismatchError') return undefined
      throw this.failure(error, `${this.root}/.gitignore`)
    })
    if (!handle) return []
    return parseGitignore(await (await handle.getFile()).text())
  }

  /** A DOMException from the folder as a workspace error; a lost permission says how to get it back. */
  private failure(error: unknown, path: string, known: Record<string, [WorkspaceError['code'], string]> = {}): unknown {
    const kind = domErrorName(error)
    if (kind && known[kind]) return new WorkspaceError(known[kind][0], path, known[kind][1])
    if (kind === 'NotFoundError') return new WorkspaceError('not-found', path, `No such file or directory: ${path}`)
    if (kind === 'TypeMismatchError') return new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    if (kind === 'NotAllowedError' || kind === 'SecurityError') {
      return new WorkspaceError('unavailable', path, `No permission to the folder ${this.name} any more: reconnect to it ("Reconnect to ${this.name}").`)
    }
    return error
  }

  private emit(change: WorkspaceChange): void {
    for (const listener of [this.options.onChange, ...this.listeners]) {
      if (!listener) continue
      try {
        listener(change)
      } catch (error) {
        log.error('A workspace listener failed', error)
      }
    }
  }
}

/** A folder opened from disk, scanned and ready. */
export function openDiskWorkspace(options: DiskWorkspaceOptions): Promise<DiskWorkspace> {
  return new DiskWorkspace(options).open()
}

/** A missing or blocked parent reported for the path the caller asked about (as the stored workspace reports it). */
function retarget(error: unknown, target: string): unknown {
  if (error instanceof WorkspaceError && (error.code === 'not-directory' || error.code === 'not-found')) {
    return new WorkspaceError(error.code, target, error.message)
  }
  return error
}

async function isEmpty(directory: DirectoryHandle): Promise<boolean> {
  for await (const _ of directory.values()) return false
  return true
}

function withBefore(path: string, before: string | undefined): OutsideChange {
  return before === undefined ? { path } : { path, before }
}

function cacheKey(file: DiskFile): string {
  return `${file.path}\0${file.size}\0${file.modified}`
}

function toStat(entry: DiskEntry): FileStat {
  return {
    path: entry.path,
    name: basename(entry.path),
    type: entry.type,
    size: entry.type === 'file' ? entry.size : 0,
    modified: entry.modified,
  }
}

function newestFirst(files: DiskFile[]): DiskFile[] {
  return [...files].sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
