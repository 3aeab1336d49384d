/**
 * The part of the File System Access API a folder on disk is used through. TypeScript's DOM library lacks the
 * directory iterator and the permission calls (Chromium ships them; other engines may not), so they are declared
 * here, and a real `FileSystemDirectoryHandle` is taken as this shape. Tests use an in-memory one
 * (`testing/memory-directory.ts`); the built app is tested with an origin-private directory, which has the same
 * interface.
 */
export interface DirectoryHandle {
  readonly kind: 'directory'
  readonly name: string
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<DirectoryHandle>
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FileHandle>
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>
  values(): AsyncIterable<DirectoryHandle | FileHandle>
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>
  requestPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>
}

export interface FileHandle {
  readonly kind: 'file'
  readonly name: string
  getFile(): Promise<File>
  createWritable(): Promise<WritableFile>
}

export interface WritableFile {
  write(data: Uint8Array<ArrayBuffer>): Promise<void>
  close(): Promise<void>
}

/** A handle as this app uses it; a structured-clonable `FileSystemDirectoryHandle` from the picker or OPFS. */
export function asDirectoryHandle(handle: FileSystemDirectoryHandle): DirectoryHandle {
  return handle as unknown as DirectoryHandle
}

/** The DOMException name the API rejects with, when it is one. */
export function domErrorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined
}
