import { defineError } from './errors'

/**
 * The one surface tools use to touch files and run commands. Two backends implement it: the local backend (a
 * simulated shell over a filesystem persisted in IndexedDB, in the worker) and WebContainer (booted on the main
 * thread, reached from the worker). Paths are absolute POSIX paths; the project's files live under `root`.
 */
export interface Workspace {
  readonly backend: WorkspaceBackend
  /** The project directory, e.g. `/workspace`. */
  readonly root: string
  /** The raw bytes; rejects with a `WorkspaceError` (`not-found`, `is-directory`) otherwise. */
  readFile(path: string): Promise<Uint8Array>
  /** UTF-8 text (a BOM, if any, is kept as U+FEFF so an edit can write it back). */
  readText(path: string): Promise<string>
  /** Creates parent directories as needed; replaces the whole file. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>
  /** The entries directly inside a directory, sorted by name. */
  list(path: string): Promise<FileStat[]>
  /** Undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>
  remove(path: string, options?: { recursive?: boolean }): Promise<void>
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>
  /** Files (not directories) under `cwd` matching a glob (`**`, `*`, `?`, `{a,b}`, `[ab]`), newest first. */
  glob(pattern: string, options?: { cwd?: string; limit?: number }): Promise<string[]>
  /** Lines matching a regular expression (JavaScript syntax) in files under `path`, optionally filtered by a glob. */
  grep(pattern: string, options?: { path?: string; include?: string; limit?: number }): Promise<GrepMatch[]>
  /** Runs a shell command line. Output streams through `onOutput` as it comes; the promise settles when it ends. */
  exec(command: string, options: ExecOptions): Promise<ExecResult>
  /** Every change to the files (by tools, by commands, by the user), for the file tree. Returns an unsubscribe. */
  watch(listener: (change: WorkspaceChange) => void): () => void
}

export type WorkspaceBackend = 'local' | 'webcontainer'

export interface FileStat {
  path: string
  name: string
  type: 'file' | 'directory'
  size: number
  /** Milliseconds since the epoch of the last change. */
  modified: number
}

export interface GrepMatch {
  path: string
  /** 1-based. */
  line: number
  text: string
  /** Of the file, for newest-first ordering. */
  modified: number
}

export interface ExecOptions {
  cwd?: string
  /** Milliseconds; the command is killed when it runs longer, and the result says so. */
  timeout?: number
  signal?: AbortSignal
  onOutput?: (chunk: string) => void
  /** The runtimes' own words for the user (a first download's progress): shown, but not part of `output`. */
  onNotice?: (text: string) => void
  /** A runtime's first download, as it comes (`RuntimeDownload`): the card shows it as a bar and a count. */
  onDownload?: (download: RuntimeDownload) => void
  env?: Record<string, string>
}

/** How far a runtime's first download has come (Python's 12 MB): `loaded` of `total` bytes of `what`. */
export interface RuntimeDownload {
  what: string
  loaded: number
  total: number
}

export interface ExecResult {
  /** The command's exit code; 124 after a timeout and 130 after an abort, as a shell reports them. */
  exitCode: number
  /** Standard output and error interleaved, as a terminal shows them. */
  output: string
  timedOut: boolean
  aborted: boolean
  /** Which runtime served it: the offline workspace in this tab, or WebContainer (the tool card says which). */
  runtime?: ExecRuntime
  /**
   * The shell's working directory and variables when the command line ended, so a terminal can carry them into
   * its next command (`cd src`, `export A=1`). The offline shell reports them; absent after a stop, a timeout, or
   * from a backend that does not say.
   */
  shell?: ShellState
}

export interface ShellState {
  cwd: string
  env: Record<string, string>
}

export type ExecRuntime = 'offline' | 'webcontainer'

export type WorkspaceChange =
  | { type: 'write'; path: string }
  | { type: 'remove'; path: string }
  | { type: 'mkdir'; path: string }

export type WorkspaceErrorCode = 'not-found' | 'is-directory' | 'not-directory' | 'exists' | 'not-empty' | 'invalid-path' | 'unavailable'

const WorkspaceErrorDefinition = defineError('WorkspaceError', (code: WorkspaceErrorCode, path: string, message: string) => ({
  message,
  data: { code, path },
}))

/**
 * A failed workspace operation, with a code a tool can act on and a message a person (or model) can read. Its data
 * (`code`, `path`) crosses the worker boundary with it; `code` and `path` read it, as a file system's error would.
 */
export class WorkspaceError extends WorkspaceErrorDefinition {
  get code(): WorkspaceErrorCode {
    return this.data.code
  }
  get path(): string {
    return this.data.path
  }
}

export const WORKSPACE_ROOT = '/workspace'
