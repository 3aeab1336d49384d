import { dirname as dirnameOf } from '../path'

/** A file or directory the script's `fs` sees: Node's error codes, so a script can branch on `error.code`. */
export type FsErrorCode = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY'

export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
  ) {
    super(code)
  }
}

/** What a run changed, to write back through the project's files when it ends. */
export interface FsChanges {
  writes: { path: string; content: Uint8Array }[]
  removals: string[]
  directories: string[]
}

/**
 * The project's files as the engine holds them for one run: synchronous, as Node's `fs.*Sync` are, and tracking what
 * the script wrote or removed so the run can send back only its changes. After `freeze` (the script called
 * `process.exit`) nothing changes any more, as in a process that has ended.
 */
export class MemoryFs {
  private readonly files = new Map<string, { content: Uint8Array; modified: number }>()
  private readonly directories = new Set<string>(['/'])
  private readonly written = new Set<string>()
  private readonly removed = new Set<string>()
  private readonly made = new Set<string>()
  private frozen = false

  constructor(
    snapshot: Iterable<{ path: string; content: Uint8Array; modified?: number }> = [],
    extraDirectories: Iterable<string> = [],
    private readonly now: () => number = Date.now,
  ) {
    for (const directory of extraDirectories) this.addParents(directory, false)
    for (const file of snapshot) {
      this.addParents(dirnameOf(file.path), false)
      this.files.set(file.path, { content: file.content, modified: file.modified ?? now() })
    }
  }

  freeze(): void {
    this.frozen = true
  }

  stat(path: string): { type: 'file' | 'directory'; size: number; modified: number } {
    const file = this.files.get(path)
    if (file) return { type: 'file', size: file.content.byteLength, modified: file.modified }
    if (this.directories.has(path)) return { type: 'directory', size: 0, modified: 0 }
    throw new FsError('ENOENT', path)
  }

  exists(path: string): boolean {
    return this.files.has(path) || this.directories.has(path)
  }

  read(path: string): Uint8Array {
    const file = this.files.get(path)
    if (file) return file.content
    throw new FsError(this.directories.has(path) ? 'EISDIR' : 'ENOENT', path)
  }

  write(path: string, content: Uint8Array, append = false): void {
    if (this.frozen) return
    if (this.directories.has(path)) throw new FsError('EISDIR', path)
    const parent = dirnameOf(path)
    if (this.files.has(parent)) throw new FsError('ENOTDIR', path)
    if (!this.directories.has(parent)) throw new FsError('ENOENT', path)
    const previous = this.files.get(path)?.content
    const next = append && previous ? concat(previous, content) : content
    this.files.set(path, { content: next, modified: this.now() })
    this.written.add(path)
    this.removed.delete(path)
  }

  list(path: string): string[] {
    if (this.files.has(path)) throw new FsError('ENOTDIR', path)
    if (!this.directories.has(path)) throw new FsError('ENOENT', path)
    const prefix = path === '/' ? '/' : `${path}/`
    const names = new Set<string>()
    for (const key of [...this.files.keys(), ...this.directories]) {
      if (key.startsWith(prefix) && key !== path) names.add(key.slice(prefix.length).split('/')[0]!)
    }
    return [...names].sort()
  }

  mkdir(path: string, recursive: boolean): void {
    if (this.frozen) return
    if (this.exists(path)) {
      if (recursive && this.directories.has(path)) return
      throw new FsError('EEXIST', path)
    }
    const parent = dirnameOf(path)
    if (!recursive && !this.directories.has(parent)) throw new FsError('ENOENT', path)
    if (this.files.has(parent)) throw new FsError('ENOTDIR', path)
    this.addParents(path, true)
  }

  /** `unlink` for a file, `rmdir` for an empty directory, `rm -r` with `recursive`. */
  remove(path: string, options: { directory?: boolean; recursive?: boolean } = {}): void {
    if (this.frozen) return
    if (this.files.has(path)) {
      if (options.directory && !options.recursive) throw new FsError('ENOTDIR', path)
      this.files.delete(path)
      this.forget(path)
      return
    }
    if (!this.directories.has(path)) throw new FsError('ENOENT', path)
    if (!options.directory && !options.recursive) throw new FsError('EISDIR', path)
    const inside = this.list(path)
    if (inside.length > 0 && !options.recursive) throw new FsError('ENOTEMPTY', path)
    for (const name of inside) this.remove(`${path === '/' ? '' : path}/${name}`, { recursive: true })
    this.directories.delete(path)
    this.forget(path)
  }

  rename(from: string, to: string): void {
    if (this.frozen) return
    const content = this.read(from)
    this.write(to, content)
    this.remove(from)
  }

  /** The changes under `root`: what a script wrote elsewhere (say `/tmp`) lived only as long as the run. */
  changes(root: string): FsChanges {
    const inside = (path: string) => path === root || path.startsWith(`${root}/`)
    return {
      writes: [...this.written].filter(inside).map((path) => ({ path, content: this.files.get(path)!.content })),
      removals: [...this.removed].filter(inside),
      directories: [...this.made].filter((path) => inside(path) && this.directories.has(path)),
    }
  }

  private forget(path: string): void {
    this.written.delete(path)
    this.made.delete(path)
    this.removed.add(path)
  }

  private addParents(path: string, track: boolean): void {
    const missing: string[] = []
    for (let current = path; !this.directories.has(current); current = dirnameOf(current)) missing.push(current)
    for (const directory of missing.reverse()) {
      this.directories.add(directory)
      if (track) {
        this.made.add(directory)
        this.removed.delete(directory)
      }
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength)
  out.set(a)
  out.set(b, a.byteLength)
  return out
}
