import type { GitRemotes } from '../runtime/program'
import { log } from '../../core/log'
import type { IgnoreRule } from '../../core/gitignore'
import { basename, dirname, isInside, relativePath, resolvePath } from '../path'
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
import { hashContent } from '../local/hash'
import { StoredWorkspace, type LocalWorkspace } from '../local/stored-workspace'
import { decodeText, encodeText } from '../local/text'
import { createWriteQueue } from '../local/write-queue'
import type { DirectoryHandle } from './directory-handle'
import { cacheKey, type DiskEntry, type DiskFile } from './disk-entry'
import { globFiles, grepCandidates, grepFiles, toStat } from '../local/index-queries'
import { FolderHandles, isEmpty, retarget } from './folder-handles'
import { readRules, scanFolder } from './folder-scan'
import { watchFolder, type FolderWatch } from './folder-watch'
import { createMemoryStorage } from '../local/memory-storage'
import { TrackedFiles, type OutsideChange } from './tracked-files'

export type { OutsideChange } from './tracked-files'

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
  /** How the shell's `git` reaches remotes (the worker's settings, tokens and token dialog); none without it. */
  remotes?: GitRemotes
}

/** Contents kept after a read, keyed by path, size and time so a file changed on disk is read again. */
const CACHE_BYTES = 32 * 1024 * 1024
const HASH_CONCURRENCY = 16
/** Without an observer, a whole scan that ended this recently stands for a new one. */
const SCAN_REUSE_MS = 1000

/**
 * A project that *is* a folder on disk (File System Access API). Reads, writes and commands go to the folder; an
 * in-memory index of what the project tracks (`tracked-files.ts`) answers listings, glob and grep, and is brought up
 * to date by `refresh()` (a scan comparing each file's size and time, skipped while the browser's file-system
 * observer reports nothing). `stat` and reads always ask the disk, so the read-before-edit rule (tools/file-times.ts)
 * sees a file another editor changed. Paths outside the root (a command's `/tmp`) live in memory for the page's
 * lifetime.
 */
export class DiskWorkspace implements LocalWorkspace {
  readonly backend = 'local'
  readonly root = WORKSPACE_ROOT
  readonly name: string
  private readonly tracked: TrackedFiles
  private readonly handles: FolderHandles
  private readonly contents = new BlobCache(CACHE_BYTES)
  /**
   * Paths outside the folder (a command's `/tmp`), in memory for the page's lifetime: they were never part of the
   * project, so they are neither written to the folder nor stored.
   */
  private readonly scratch = new StoredWorkspace({ storage: createMemoryStorage(), entries: [] })
  private readonly listeners = new Set<(change: WorkspaceChange) => void>()
  private readonly enqueue = createWriteQueue()
  private readonly handle: DirectoryHandle
  private readonly options: DiskWorkspaceOptions
  private watch_: FolderWatch | undefined
  private scanning: Promise<void> | undefined
  /** The background read of the sizes and times the first scan left out. */
  private stating: Promise<void> = Promise.resolve()
  /** When the last whole scan ended (the fallback without an observer reuses one for a moment). */
  private scannedAt = -Infinity

  constructor(options: DiskWorkspaceOptions) {
    this.options = options
    this.handle = options.handle
    this.name = options.handle.name
    this.handles = new FolderHandles(WORKSPACE_ROOT, options.handle, (target) => this.isKnownAbsent(target))
    this.tracked = new TrackedFiles({
      emit: (change) => this.emit(change),
      onOutsideChange: (changes) => this.options.onOutsideChange?.(changes),
      fileStat: (path, handle) => this.handles.fileStat(path, handle),
    })
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
    this.tracked.load(entries, rules)
    this.watch_?.scanned()
    this.scannedAt = Date.now()
    this.stating = this.tracked.statUnstated().catch((error) => log.warn('Could not read the sizes and times of the folder', error))
    return this
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
      this.handles.forget(path)
      const found = await this.handles.diskFile(path)
      const known = this.tracked.index.get(path)
      if (!found) {
        if (known) removed.push(path)
        continue
      }
      // A folder that appeared (a checkout, an unzip): its contents are read by a whole scan.
      if (found === 'directory') {
        if (!known && this.tracked.isTracked(path, true)) return this.rescan()
        continue
      }
      const file: DiskFile = { type: 'file', path, size: found.size, modified: found.lastModified }
      if (known?.type !== 'file' || this.tracked.settle(file)) changed.push(file)
    }
    this.tracked.noticeOutside(changed, removed)
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
      const { directory, created } = await this.handles.parentOf(target, true)
      const handle = await directory.getFileHandle(basename(target), { create: true }).catch((error: unknown) => {
        throw this.handles.failure(error, target, { TypeMismatchError: ['is-directory', `Is a directory: ${target}`] })
      })
      const writable = await handle.createWritable().catch((error: unknown) => {
        throw this.handles.failure(error, target)
      })
      await writable.write(data)
      await writable.close()
      const file = await this.handles.fileStat(target, handle)
      this.tracked.hashes.set(target, { size: file.size, modified: file.modified, hash: await hashContent(data) })
      this.contents.set(cacheKey(file), data)
      for (const directory of created) this.tracked.record({ type: 'directory', path: directory, modified: file.modified })
      this.tracked.record(file)
      if (basename(target) === '.gitignore' && dirname(target) === this.root) await this.rescan()
    })
  }

  async list(path: string): Promise<FileStat[]> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.list(target)
    await this.refresh()
    const entry = this.tracked.index.get(target)
    if (entry?.type === 'file') throw new WorkspaceError('not-directory', target, `Not a directory: ${target}`)
    if (entry) {
      await this.tracked.statUnstated(target)
      return this.tracked.index.list(target).map(toStat)
    }
    // Not indexed: a left-out folder (node_modules, .git), read from disk as it is.
    const directory = await this.handles.directoryAt(target, false).catch((error: unknown) => {
      if (error instanceof WorkspaceError && error.code === 'not-found') throw new WorkspaceError('not-found', target, `Directory not found: ${target}`)
      throw error
    })
    const stats: FileStat[] = []
    for await (const child of directory.values()) {
      const childPath = `${target}/${child.name}`
      stats.push(child.kind === 'file' ? toStat(await this.handles.fileStat(childPath, child)) : toStat({ type: 'directory', path: childPath, modified: 0 }))
    }
    return stats.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.stat(target)
    if (target === this.root) return toStat(this.tracked.index.get(target)!)
    const found = await this.handles.diskFile(target)
    if (!found) {
      if (this.tracked.index.get(target)) this.tracked.forget(target, true)
      return undefined
    }
    if (found === 'directory') return toStat(this.tracked.index.get(target) ?? { type: 'directory', path: target, modified: 0 })
    const file: DiskFile = { type: 'file', path: target, size: found.size, modified: found.lastModified }
    // The disk is newer than the index (no observer, no scan yet): the index learns it here, and so do file trees.
    if (this.tracked.settle(file)) this.tracked.noticeOutside([file], [])
    return toStat(file)
  }

  async remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.remove(target, options)
    await this.enqueue(async () => {
      if (target === this.root) throw new WorkspaceError('invalid-path', target, `Cannot remove ${target}: it is the workspace root`)
      const found = await this.handles.lookup(target)
      if (!found) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      if (found.kind === 'directory' && !options?.recursive && !(await isEmpty(found))) {
        throw new WorkspaceError('not-empty', target, `Directory not empty: ${target}`)
      }
      const { directory } = await this.handles.parentOf(target, false)
      await directory.removeEntry(basename(target), { recursive: options?.recursive ?? false }).catch((error: unknown) => {
        throw this.handles.failure(error, target, { InvalidModificationError: ['not-empty', `Directory not empty: ${target}`] })
      })
      this.handles.forgetUnder(target)
      this.tracked.forget(target, false)
    })
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    if (!this.isOwn(target)) return this.scratch.mkdir(target, options)
    await this.enqueue(async () => {
      const existing = await this.handles.lookup(target)
      if (existing?.kind === 'directory' && options?.recursive) return
      if (existing) throw new WorkspaceError('exists', target, `File exists: ${target}`)
      const created: string[] = []
      // Without -p the parent must exist; the directory itself is always made.
      if (!options?.recursive) await this.handles.parentOf(target, false)
      await this.handles.directoryAt(target, true, created).catch((error: unknown) => {
        throw retarget(error, target)
      })
      for (const directory of created) this.tracked.record({ type: 'directory', path: directory, modified: 0 })
    })
  }

  async glob(pattern: string, options?: { cwd?: string; limit?: number }): Promise<string[]> {
    await this.refresh()
    await this.stating
    const base = this.tracked.indexedDirectory(this.resolve(options?.cwd ?? this.root))
    return globFiles(this.tracked.filesUnder(base), pattern, base, options?.limit)
  }

  async grep(pattern: string, options?: { path?: string; include?: string; limit?: number }): Promise<GrepMatch[]> {
    await this.refresh()
    await this.stating
    const expression = new RegExp(pattern)
    const target = this.resolve(options?.path ?? this.root)
    const entry = this.tracked.index.get(target)
    if (!entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
    const candidates = grepCandidates(entry, (directory) => this.tracked.filesUnder(directory), options?.include)
    // A file removed on disk since the index saw it is skipped, as grep skips a file it cannot open.
    return grepFiles(candidates, expression, (file) => this.read(file.path).catch(() => undefined), options?.limit)
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
      onDownload: options.onDownload,
      ...(this.options.remotes ? { remotes: this.options.remotes } : {}),
    })
    return { ...result, runtime: 'offline' }
  }

  /** Every path the index holds, for the shell's synchronous listing (its glob fallback). */
  paths(): string[] {
    return [...this.tracked.index.subtree('/').map((entry) => entry.path), ...this.scratch.paths().filter((path) => !isInside(this.root, path))]
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
    for (const file of this.tracked.filesUnder(this.root)) {
      const known = this.tracked.hashes.get(file.path)
      if (known && known.size === file.size && known.modified === file.modified) manifest[file.path] = known.hash
      else stale.push(file)
    }
    for (let start = 0; start < stale.length; start += HASH_CONCURRENCY) {
      await Promise.all(
        stale.slice(start, start + HASH_CONCURRENCY).map(async (file) => {
          const data = await this.read(file.path).catch(() => undefined)
          // Gone since the index saw it: the next scan removes it.
          if (!data) return
          const current = this.tracked.index.get(file.path)
          if (current?.type !== 'file') return
          const hash = await hashContent(data)
          this.tracked.hashes.set(file.path, { size: current.size, modified: current.modified, hash })
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

  /**
   * A tracked path the index lacks while the observer vouches for the folder is not there: no disk call (a step
   * asks for AGENTS.md and the like every time).
   */
  private isKnownAbsent(target: string): boolean {
    return this.watch_?.vouchesFor(relativePath(this.root, target)) === true && this.tracked.lacks(target)
  }

  /** The file's bytes from disk (or from the cache, when its size and time are those cached). */
  private async read(target: string): Promise<Uint8Array> {
    const file = await this.handles.diskFile(target)
    if (!file) throw new WorkspaceError('not-found', target, `File not found: ${target}`)
    if (file === 'directory') throw new WorkspaceError('is-directory', target, `Is a directory: ${target}`)
    const stat: DiskFile = { type: 'file', path: target, size: file.size, modified: file.lastModified }
    if (this.tracked.settle(stat)) this.tracked.noticeOutside([stat], [])
    const cached = this.contents.get(cacheKey(stat))
    if (cached) return cached
    const data = new Uint8Array(await file.arrayBuffer())
    this.contents.set(cacheKey(stat), data)
    return data
  }


  /** Compares a fresh scan with the index and applies the difference. Runs in the write queue. */
  private async rescan(): Promise<void> {
    await this.stating
    const { entries, rules } = await this.scan(true)
    this.scannedAt = Date.now()
    this.tracked.applyScan(entries, rules)
  }

  /**
   * Every tracked entry of the folder, with the root `.gitignore`'s rules it was read under. Without `stats`, files
   * are only named (size and time 0, their handles kept in `unstated`).
   */
  private async scan(stats: boolean): Promise<{ entries: DiskEntry[]; rules: IgnoreRule[] }> {
    const rules = await readRules(this.handle, (error) => this.handles.failure(error, `${this.root}/.gitignore`))
    const entries = await scanFolder({
      root: this.root,
      handle: this.handle,
      rules,
      fileStat: stats ? (path, handle) => this.handles.fileStat(path, handle) : undefined,
      onUnstated: (path, handle) => this.tracked.unstated.set(path, handle),
      onDirectory: (path, handle) => this.handles.keepDirectory(path, handle),
    })
    return { entries, rules }
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
