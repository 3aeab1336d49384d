import type { FileSystemTree } from '@webcontainer/api'
import { WorkspaceError, type WorkspaceErrorCode } from '../workspace'

// The narrow slice of the WebContainer SDK this adapter uses, so tests can hand it a small fake. A real
// `WebContainer` is assignable to `ContainerLike` (checked in the tests).

export interface ContainerDirEntry {
  name: string
  isFile(): boolean
  isDirectory(): boolean
}

export interface ContainerWatcher {
  close(): void
}

/** Paths are relative to the container's working directory, as the SDK resolves them. */
export interface ContainerFileSystem {
  readFile(path: string): Promise<Uint8Array>
  writeFile(path: string, data: string | Uint8Array): Promise<void>
  readdir(path: string, options: { withFileTypes: true }): Promise<ContainerDirEntry[]>
  mkdir(path: string, options?: { recursive?: false }): Promise<unknown>
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>
  watch?(
    path: string,
    options: { recursive: boolean },
    listener: (event: 'rename' | 'change', filename: string | Uint8Array) => void,
  ): ContainerWatcher
}

export interface ContainerProcess {
  /** The pseudo-terminal's output: stdout and stderr of the process and its children, interleaved. */
  output: ReadableStream<string>
  exit: Promise<number>
  kill(): void
}

export interface ContainerSpawnOptions {
  /** Relative to the working directory. */
  cwd?: string
  env?: Record<string, string>
  terminal?: { cols: number; rows: number }
}

export interface ContainerLike {
  fs: ContainerFileSystem
  spawn(command: string, args: string[], options?: ContainerSpawnOptions): Promise<ContainerProcess>
}

export interface MountableContainer {
  mount(tree: FileSystemTree): Promise<void>
}

const ERROR_CODES: [RegExp, WorkspaceErrorCode, (path: string) => string][] = [
  [/ENOENT/, 'not-found', (path) => `No such file or directory: ${path}`],
  [/EISDIR/, 'is-directory', (path) => `${path} is a directory.`],
  [/ENOTDIR/, 'not-directory', (path) => `${path} is not a directory (or a parent of it is a file).`],
  [/EEXIST/, 'exists', (path) => `${path} already exists.`],
  [/ENOTEMPTY/, 'not-empty', (path) => `${path} is not empty.`],
]

/**
 * WebContainer's fs errors arrive from the StackBlitz frame through Comlink, which keeps only name and message
 * (`ENOENT: no such file or directory, open '…'`), so the code is read from either.
 */
export function toWorkspaceError(error: unknown, path: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error
  const code = (error as { code?: unknown } | null)?.code
  const text = `${typeof code === 'string' ? code : ''} ${messageOf(error)}`
  for (const [pattern, workspaceCode, message] of ERROR_CODES) {
    if (pattern.test(text)) return new WorkspaceError(workspaceCode, path, message(path))
  }
  return new WorkspaceError('unavailable', path, `WebContainer could not complete the operation on ${path}: ${messageOf(error)}`)
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
