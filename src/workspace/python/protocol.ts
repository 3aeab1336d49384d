import type { PythonInvocation } from './argv'

/** The messages between the agent's worker (the host) and the dedicated Pyodide worker. */

/** A program the engine can run: the forms of `PythonInvocation` that reach Python. */
export type PythonJob = Extract<PythonInvocation, { kind: 'script' | 'code' | 'module' | 'stdin' }> & { source?: string }

/** Files for the engine's `/workspace` before a run: the project's changes since it last saw them. */
export interface FileUpload {
  /** Empty the engine's project directory first (another project than last time). */
  reset: boolean
  root: string
  remove: string[]
  mkdir: string[]
  write: { path: string; data: Uint8Array; modified: number }[]
}

/** What Python changed in the project directory during a run. */
export interface FileDownload {
  remove: string[]
  mkdir: string[]
  write: { path: string; data: Uint8Array }[]
}

/** An installed wheel of the offline set (src/workspace/python/wheels.ts): the engine unpacks it into site-packages. */
export interface PackageWheel {
  name: string
  file: string
  data: Uint8Array
}

export interface RunRequest {
  job: PythonJob
  argv0: string
  cwd: string
  env: Record<string, string>
  stdin: string
  upload: FileUpload
  /** Every package installed with `pip`: the interpreter has exactly these (unpacked once, removed when uninstalled). */
  packages: PackageWheel[]
}

export type HostMessage =
  /** `interrupt` is Pyodide's interrupt buffer: the host writes 2 (SIGINT) into it to stop the running code. */
  | { type: 'init'; indexURL: string; interrupt: SharedArrayBuffer | undefined }
  | { type: 'run'; id: number; request: RunRequest }

export type EngineMessage =
  /** Download progress of the runtime on its first use (nothing is sent when it comes from the cache). */
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'ready'; version: string }
  | { type: 'failed'; message: string }
  | { type: 'output'; id: number; stream: 'stdout' | 'stderr'; text: string }
  /** `reusable` false: the interpreter cannot start the next run clean, and the host replaces the worker. */
  | { type: 'done'; id: number; exitCode: number; download: FileDownload; reusable: boolean }
