import { basename, dirname, isInside } from '../path'
import { WorkspaceError } from '../workspace'
import { domErrorName, type DirectoryHandle, type FileHandle } from './directory-handle'
import type { DiskFile } from './disk-entry'

/**
 * The handles of a folder opened from disk, found by path. The File System Access API reaches an entry only by
 * walking its folders one name at a time, so every handle found is kept: a handle names a path, and it still works
 * after another program rewrote the file. Its DOMExceptions come out as workspace errors.
 */
export class FolderHandles {
  private readonly directories = new Map<string, DirectoryHandle>()
  private readonly files = new Map<string, FileHandle>()

  /**
   * `knownAbsent`: whether a path is surely not on disk without asking it (the observer vouches for its folder), so
   * a lookup makes no disk call.
   */
  constructor(
    readonly root: string,
    readonly handle: DirectoryHandle,
    private readonly knownAbsent: (target: string) => boolean,
  ) {
    this.directories.set(root, handle)
  }

  /** A directory handle a scan came across, kept so no lookup walks to it again. */
  keepDirectory(path: string, handle: DirectoryHandle): void {
    this.directories.set(path, handle)
  }

  /** Drops the handles kept for a path (another program may have replaced what is there). */
  forget(path: string): void {
    this.files.delete(path)
    this.directories.delete(path)
  }

  /** Drops the handles kept for a path and everything under it (it was removed). */
  forgetUnder(target: string): void {
    for (const key of [...this.directories.keys()]) if (key !== this.root && isInside(target, key)) this.directories.delete(key)
    for (const key of [...this.files.keys()]) if (isInside(target, key)) this.files.delete(key)
  }

  /** The handle at a path, or undefined when nothing (or a file in the way) is there. */
  async lookup(target: string): Promise<DirectoryHandle | FileHandle | undefined> {
    if (target === this.root) return this.handle
    const cached = this.files.get(target)
    if (cached) return cached
    if (this.knownAbsent(target)) return undefined
    const parent = await this.directoryAt(dirname(target), false).catch((error: unknown) => {
      if (error instanceof WorkspaceError && (error.code === 'not-found' || error.code === 'not-directory')) return undefined
      throw error
    })
    if (!parent) return undefined
    const name = basename(target)
    try {
      const handle = await parent.getFileHandle(name)
      this.files.set(target, handle)
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
  async directoryAt(target: string, create: boolean, created: string[] = []): Promise<DirectoryHandle> {
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
  async parentOf(target: string, create: boolean): Promise<{ directory: DirectoryHandle; created: string[] }> {
    const created: string[] = []
    const directory = await this.directoryAt(dirname(target), create, created).catch((error: unknown) => {
      throw retarget(error, target)
    })
    return { directory, created }
  }

  /** The file at a path as the disk has it now; a cached handle whose file is gone is looked up once more. */
  async diskFile(target: string): Promise<File | 'directory' | undefined> {
    for (const retry of [false, true]) {
      const found = await this.lookup(target)
      if (!found) return undefined
      if (found.kind === 'directory') return 'directory'
      try {
        return await found.getFile()
      } catch (error) {
        this.files.delete(target)
        if (retry || domErrorName(error) !== 'NotFoundError') throw this.failure(error, target)
      }
    }
    return undefined
  }

  async fileStat(path: string, handle: FileHandle): Promise<DiskFile> {
    const file = await handle.getFile().catch((error: unknown) => {
      throw this.failure(error, path)
    })
    return { type: 'file', path, size: file.size, modified: file.lastModified }
  }

  /** A DOMException from the folder as a workspace error; a lost permission says how to get it back. */
  failure(error: unknown, path: string, known: Record<string, [WorkspaceError['code'], string]> = {}): unknown {
    const kind = domErrorName(error)
    if (kind && known[kind]) return new WorkspaceError(known[kind][0], path, known[kind][1])
    if (kind === 'NotFoundError') return new WorkspaceError('not-found', path, `No such file or directory: ${path}`)
    if (kind === 'TypeMismatchError') return new WorkspaceError('not-directory', path, `Not a directory: ${path}`)
    if (kind === 'NotAllowedError' || kind === 'SecurityError') {
      const name = this.handle.name
      return new WorkspaceError('unavailable', path, `No permission to the folder ${name} any more: reconnect to it ("Reconnect to ${name}").`)
    }
    return error
  }
}

/** A missing or blocked parent reported for the path the caller asked about (as the stored workspace reports it). */
export function retarget(error: unknown, target: string): unknown {
  if (error instanceof WorkspaceError && (error.code === 'not-directory' || error.code === 'not-found')) {
    return new WorkspaceError(error.code, target, error.message)
  }
  return error
}

export async function isEmpty(directory: DirectoryHandle): Promise<boolean> {
  for await (const _ of directory.values()) return false
  return true
}
