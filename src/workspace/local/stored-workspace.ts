import { log } from '../../core/log'
import { dirname, resolvePath } from '../path'
import {
  WORKSPACE_ROOT,
  WorkspaceError,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type GrepMatch,
  type Workspace,
  type WorkspaceChange,
} from '../workspace'
import { BlobCache } from './blob-cache'
import { FileIndex } from './file-index'
import { hashContent } from './hash'
import type { GitRemotes } from '../runtime/program'
import type { FileEntry, IndexEntry, StorageCommit, WorkspaceStorage } from '../../core/workspace-storage'
import { decodeText, encodeText } from './text'
import { globFiles, grepCandidates, grepFiles, toStat } from './index-queries'
import { createWriteQueue } from './write-queue'

/** The local backend: the `Workspace` tools use, plus what snapshots need to know. */
export interface LocalWorkspace extends Workspace {
  readonly backend: 'local'
  /**
   * Every file's content hash by absolute path, for the files under `root` (what snapshots track and WebContainer
   * mounts; scratch files a command left in `/tmp` stay out).
   */
  manifest(): Promise<Record<string, string>>
}

export interface StoredWorkspaceOptions {
  storage: WorkspaceStorage
  entries: IndexEntry[]
  now?: () => number
  onChange?: (change: WorkspaceChange) => void
  /** How the shell's `git` reaches remotes (the worker's settings, tokens and token dialog); none without it. */
  remotes?: GitRemotes
}

/** Contents kept in memory after a read; the rest stays in storage. */
const CACHE_BYTES = 32 * 1024 * 1024

/**
 * A workspace over any `WorkspaceStorage`: an in-memory index answers listings and searches, contents are read
 * from storage when first needed, and every change commits to storage before the index shows it.
 */
export class StoredWorkspace implements LocalWorkspace {
  readonly backend = 'local'
  readonly root = WORKSPACE_ROOT
  private readonly index = new FileIndex(['/', WORKSPACE_ROOT])
  private readonly cache = new BlobCache(CACHE_BYTES)
  private readonly listeners = new Set<(change: WorkspaceChange) => void>()
  private readonly enqueue = createWriteQueue()
  private readonly storage: WorkspaceStorage
  private readonly now: () => number
  private readonly onChange?: (change: WorkspaceChange) => void
  private readonly remotes?: GitRemotes
  /** Settles once initial files (of a memory workspace) are in; every operation waits for it. */
  private ready: Promise<unknown> = Promise.resolve()

  constructor(options: StoredWorkspaceOptions) {
    this.storage = options.storage
    this.now = options.now ?? Date.now
    this.onChange = options.onChange
    this.remotes = options.remotes
    for (const entry of options.entries) this.index.set(entry)
  }

  /** Writes initial files without making the caller wait: operations queue behind them. */
  seed(files: Record<string, string>): void {
    this.ready = Promise.all(Object.entries(files).map(([path, content]) => this.write(path, content)))
  }

  async readFile(path: string): Promise<Uint8Array> {
    await this.ready
    const entry = this.fileAt(this.resolve(path))
    // A copy: callers may change the bytes they get without changing the cached contents.
    return (await this.contentOf(entry)).slice()
  }

  async readText(path: string): Promise<string> {
    await this.ready
    return decodeText(await this.contentOf(this.fileAt(this.resolve(path))))
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    await this.ready
    await this.write(path, content)
  }

  private async write(path: string, content: string | Uint8Array): Promise<void> {
    const target = this.resolve(path)
    const data = typeof content === 'string' ? encodeText(content) : content.slice()
    // Hashing inside the queue keeps writes in call order: the last call to write a path wins.
    await this.enqueue(async () => {
      const hash = await hashContent(data)
      const existing = this.index.get(target)
      if (existing?.type === 'directory') throw new WorkspaceError('is-directory', target, `Is a directory: ${target}`)
      const modified = this.now()
      const directories = this.missingParents(target, modified, true)
      const file: FileEntry = { type: 'file', path: target, hash, size: data.length, modified }
      await this.commit({ put: [...directories, file], remove: [], blobs: [{ hash, data }] })
      this.cache.set(hash, data)
      for (const directory of directories) this.emit({ type: 'mkdir', path: directory.path })
      this.emit({ type: 'write', path: target })
    })
  }

  async list(path: string): Promise<FileStat[]> {
    await this.ready
    const target = this.resolve(path)
    const entry = this.index.get(target)
    if (!entry) throw new WorkspaceError('not-found', target, `Directory not found: ${target}`)
    if (entry.type !== 'directory') throw new WorkspaceError('not-directory', target, `Not a directory: ${target}`)
    return this.index.list(target).map(toStat)
  }

  async stat(path: string): Promise<FileStat | undefined> {
    await this.ready
    const entry = this.index.get(this.resolve(path))
    return entry && toStat(entry)
  }

  async remove(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    await this.ready
    await this.enqueue(async () => {
      if (this.index.isImplicit(target)) {
        throw new WorkspaceError('invalid-path', target, `Cannot remove ${target}: it is the workspace root`)
      }
      const entry = this.index.get(target)
      if (!entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
      if (entry.type === 'directory' && !options?.recursive && this.index.hasChildren(target)) {
        throw new WorkspaceError('not-empty', target, `Directory not empty: ${target}`)
      }
      await this.commit({ put: [], remove: this.index.subtree(target).map((item) => item.path), blobs: [] })
      this.emit({ type: 'remove', path: target })
    })
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = this.resolve(path)
    await this.ready
    await this.enqueue(async () => {
      const existing = this.index.get(target)
      if (existing?.type === 'directory' && options?.recursive) return
      if (existing) throw new WorkspaceError('exists', target, `File exists: ${target}`)
      const modified = this.now()
      const directories = [...this.missingParents(target, modified, options?.recursive ?? false)]
      directories.push({ type: 'directory', path: target, modified })
      await this.commit({ put: directories, remove: [], blobs: [] })
      for (const directory of directories) this.emit({ type: 'mkdir', path: directory.path })
    })
  }

  async glob(pattern: string, options?: { cwd?: string; limit?: number }): Promise<string[]> {
    await this.ready
    const base = this.directoryAt(this.resolve(options?.cwd ?? this.root))
    return globFiles(this.filesUnder(base), pattern, base, options?.limit)
  }

  async grep(pattern: string, options?: { path?: string; include?: string; limit?: number }): Promise<GrepMatch[]> {
    await this.ready
    const expression = new RegExp(pattern)
    const target = this.resolve(options?.path ?? this.root)
    const entry = this.index.get(target)
    if (!entry) throw new WorkspaceError('not-found', target, `No such file or directory: ${target}`)
    const candidates = grepCandidates<FileEntry>(entry, (directory) => this.filesUnder(directory), options?.include)
    return grepFiles(candidates, expression, (file) => this.contentOf(file), options?.limit)
  }

  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    await this.ready
    // The shell's glue loads with the first command: the worker's entry reads stored files with this class.
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
      ...(this.remotes ? { remotes: this.remotes } : {}),
    })
    return { ...result, runtime: 'offline' }
  }

  /** Every path the index holds, for the shell's synchronous listing (its glob fallback). */
  paths(): string[] {
    return this.index.subtree('/').map((entry) => entry.path)
  }

  watch(listener: (change: WorkspaceChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async manifest(): Promise<Record<string, string>> {
    await this.ready
    const manifest: Record<string, string> = {}
    for (const entry of this.index.subtree(this.root)) if (entry.type === 'file') manifest[entry.path] = entry.hash
    return manifest
  }

  private resolve(path: string): string {
    if (path.includes('\0')) throw new WorkspaceError('invalid-path', path, `Invalid path (contains a NUL byte): ${path}`)
    return resolvePath(this.root, path)
  }

  private fileAt(path: string): FileEntry {
    const entry = this.index.get(path)
    if (!entry) throw new WorkspaceError('not-found', path, `File not found: ${path}`)
    if (entry.type === 'directory') throw new WorkspaceError('is-directory', path, `Is a directory: ${path}`)
    return entry
  }

  private directoryAt(path: string): string {
    const entry = this.index.get(path)
    if (!entry) throw new WorkspaceError('not-found', path, `Directory not found: ${path}`)
    if (entry.type !== 'directory') throw new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    return path
  }

  private filesUnder(directory: string): FileEntry[] {
    return this.index.subtree(directory).filter((entry): entry is FileEntry => entry.type === 'file')
  }

  private async contentOf(entry: FileEntry): Promise<Uint8Array> {
    const cached = this.cache.get(entry.hash)
    if (cached) return cached
    const data = await this.storage.readBlob(entry.hash)
    if (!data) throw new WorkspaceError('not-found', entry.path, `The contents of ${entry.path} are missing from storage`)
    this.cache.set(entry.hash, data)
    return data
  }

  /**
   * The directories to create above `path`, outermost first. Without `create`, a missing parent is an error, as
   * `mkdir` without `-p` reports it; a file in the way always is.
   */
  private missingParents(path: string, modified: number, create: boolean): IndexEntry[] {
    const missing: IndexEntry[] = []
    for (let parent = dirname(path); ; parent = dirname(parent)) {
      const entry = this.index.get(parent)
      if (entry?.type === 'file') throw new WorkspaceError('not-directory', path, `Not a directory: ${parent}`)
      if (entry) break
      if (!create) throw new WorkspaceError('not-found', path, `No such file or directory: ${parent}`)
      missing.unshift({ type: 'directory', path: parent, modified })
    }
    return missing
  }

  /** Storage first, then the index: a failed commit leaves both as they were. */
  private async commit(change: StorageCommit): Promise<void> {
    await this.storage.commit(change)
    for (const path of change.remove) this.index.delete(path)
    for (const entry of change.put) this.index.set(entry)
  }

  private emit(change: WorkspaceChange): void {
    for (const listener of [this.onChange, ...this.listeners]) {
      if (!listener) continue
      // The change is already committed; a failing listener must not turn the write into an error.
      try {
        listener(change)
      } catch (error) {
        log.error('A workspace listener failed', error)
      }
    }
  }
}
