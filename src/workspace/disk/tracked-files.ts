import type { IgnoreRule } from '../../core/gitignore'
import { FileIndex } from '../local/file-index'
import { dirname, relativePath } from '../path'
import { WORKSPACE_ROOT, WorkspaceError, type WorkspaceChange } from '../workspace'
import type { FileHandle } from './directory-handle'
import type { DiskEntry, DiskFile } from './disk-entry'
import { compareScan, sameRules } from './folder-scan'
import { isLeftOut } from './left-out'

/** A file another program wrote, added or removed; `before`: its content hash when this workspace last knew it. */
export interface OutsideChange {
  path: string
  before?: string
}

/** Files whose sizes and times are read at once in the background. */
const STAT_BATCH = 64

export interface TrackedFilesOptions {
  /** Every change to the index, after it is made. */
  emit: (change: WorkspaceChange) => void
  /** Files another program changed, as they are found. */
  onOutsideChange: (changes: OutsideChange[]) => void
  fileStat: (path: string, handle: FileHandle) => Promise<DiskFile>
}

/**
 * What the project tracks of its folder (not `node_modules`, `.git` or what the root `.gitignore` names, see
 * `left-out.ts`): an index of paths with the sizes and times last read, and the content hashes taken at them. It
 * tells apart the workspace's own changes from those another program made on disk, and announces both.
 */
export class TrackedFiles {
  readonly root = WORKSPACE_ROOT
  private index_ = new FileIndex<DiskEntry>(['/', WORKSPACE_ROOT])
  private rules: IgnoreRule[] = []
  /** Content hashes by path, valid while the file's size and time are the ones recorded. */
  readonly hashes = new Map<string, { size: number; modified: number; hash: string }>()
  /** Files the first scan found but has not read the size and time of yet (read in the background, or when listed). */
  readonly unstated = new Map<string, FileHandle>()

  constructor(private readonly options: TrackedFilesOptions) {}

  get index(): FileIndex<DiskEntry> {
    return this.index_
  }

  /** The first scan's entries, read under `rules`. */
  load(entries: readonly DiskEntry[], rules: IgnoreRule[]): void {
    this.rules = rules
    for (const entry of entries) this.index_.set(entry)
  }

  isTracked(path: string, isDirectory: boolean): boolean {
    return path !== this.root && !isLeftOut(this.rules, relativePath(this.root, path), isDirectory)
  }

  /** A tracked path the index lacks though it knows the folder it would be in. */
  lacks(target: string): boolean {
    if (this.index_.get(dirname(target))?.type !== 'directory' || this.index_.get(target)) return false
    return this.isTracked(target, false) && this.isTracked(target, true)
  }

  /** The files under an indexed directory. */
  filesUnder(directory: string): DiskFile[] {
    return this.index_.subtree(directory).filter((entry): entry is DiskFile => entry.type === 'file')
  }

  /** `path` when the index holds it as a directory; otherwise the error a listing of it gives. */
  indexedDirectory(path: string): string {
    const entry = this.index_.get(path)
    if (!entry) throw new WorkspaceError('not-found', path, `Directory not found: ${path}`)
    if (entry.type !== 'directory') throw new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    return path
  }

  /** Reads the size and time of the files the first scan only named (those directly in `only`, when given). */
  async statUnstated(only?: string): Promise<void> {
    const pending = [...this.unstated].filter(([path]) => only === undefined || dirname(path) === only)
    for (let start = 0; start < pending.length; start += STAT_BATCH) {
      await Promise.all(
        pending.slice(start, start + STAT_BATCH).map(async ([path, handle]) => {
          const file = await this.options.fileStat(path, handle).catch(() => undefined)
          if (!this.unstated.delete(path) || !file) return
          if (this.index_.get(path)?.type === 'file') this.index_.set(file)
        }),
      )
    }
  }

  /**
   * A file's size and time as just read from disk, into the index: true when that is a change another program made
   * (the index knew other ones); a file whose first size was still unread is not one.
   */
  settle(file: DiskFile): boolean {
    if (this.unstated.delete(file.path)) {
      if (this.index_.get(file.path)?.type === 'file') this.index_.set(file)
      return false
    }
    const known = this.index_.get(file.path)
    return known?.type === 'file' && (known.size !== file.size || known.modified !== file.modified)
  }

  /** An entry the workspace itself made: indexed (when tracked) and announced. */
  record(entry: DiskEntry): void {
    this.unstated.delete(entry.path)
    if (!this.isTracked(entry.path, entry.type === 'directory')) return
    const known = this.index_.get(entry.path)
    this.index_.set(entry)
    if (entry.type === 'directory' && known) return
    this.options.emit(entry.type === 'file' ? { type: 'write', path: entry.path } : { type: 'mkdir', path: entry.path })
  }

  /** A path that is gone: removed by the workspace, or found gone (`outside`, then it is an outside change too). */
  forget(target: string, outside: boolean): void {
    const known = this.index_.get(target)
    const gone = this.removedFiles(target)
    this.index_.delete(target)
    if (!known) return
    this.options.emit({ type: 'remove', path: target })
    if (outside && gone.length > 0) this.options.onOutsideChange(gone)
  }

  /** Files found changed on disk (and paths found gone) by something other than this workspace. */
  noticeOutside(files: DiskFile[], removed: string[]): void {
    const changes: OutsideChange[] = []
    for (const file of files) {
      if (!this.isTracked(file.path, false)) continue
      // The hash kept is the one of the version before (its size and time no longer match): the diff's left side.
      changes.push(withBefore(file.path, this.hashes.get(file.path)?.hash))
      this.index_.set(file)
      this.options.emit({ type: 'write', path: file.path })
    }
    for (const path of removed) {
      changes.push(...this.removedFiles(path))
      this.index_.delete(path)
      this.options.emit({ type: 'remove', path })
    }
    if (changes.length > 0) this.options.onOutsideChange(changes)
  }

  /** Brings the index to a fresh scan of the whole folder, read under `rules`, announcing the difference. */
  applyScan(entries: readonly DiskEntry[], rules: IgnoreRule[]): void {
    const rulesChanged = !sameRules(rules, this.rules)
    this.rules = rules
    const { changed, directories, removed } = compareScan(this.index_, this.root, entries)
    for (const directory of directories) {
      this.index_.set(directory)
      this.options.emit({ type: 'mkdir', path: directory.path })
    }
    if (rulesChanged) {
      // What the project ignores changed: the index is rebuilt; the trees reload from the root.
      this.index_ = new FileIndex<DiskEntry>(['/', WORKSPACE_ROOT])
      for (const entry of entries) this.index_.set(entry)
      this.options.emit({ type: 'mkdir', path: this.root })
      return
    }
    this.noticeOutside(changed, removed)
  }

  /** The files under a path about to leave the index, with the hashes they had; their hashes are dropped. */
  private removedFiles(target: string): OutsideChange[] {
    const gone: OutsideChange[] = []
    for (const entry of this.index_.subtree(target)) {
      if (entry.type === 'file') gone.push(withBefore(entry.path, this.hashes.get(entry.path)?.hash))
      this.hashes.delete(entry.path)
      this.unstated.delete(entry.path)
    }
    return gone
  }
}

function withBefore(path: string, before: string | undefined): OutsideChange {
  return before === undefined ? { path } : { path, before }
}
