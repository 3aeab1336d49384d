import * as Comlink from 'comlink'
import {
  WORKSPACE_ROOT,
  WorkspaceError,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type GrepMatch,
  type Workspace,
  type WorkspaceBackend,
  type WorkspaceChange,
  type WorkspaceErrorCode,
} from '../workspace'

// WebContainer can only live on the main thread, while the tools run in the worker; this carries a `Workspace` across
// a MessagePort. Comlink turns only top-level arguments into proxies, so callbacks travel as their own arguments.
// An AbortSignal cannot be cloned: the worker hands over a registration callback instead, which the main thread calls
// with a proxied `cancel`. Errors travel as values, since Comlink would rebuild a WorkspaceError as a bare Error and
// lose the code tools act on.

export type WireError = { name: string; message: string; code?: WorkspaceErrorCode; path?: string }
export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError }

export type WireExecOptions = Omit<ExecOptions, 'signal' | 'onOutput'>
type Cancel = () => void
type RegisterCancel = (cancel: Cancel) => void
type ChangeListener = (change: WorkspaceChange) => void

/** A file of the project, relative to its root (or absolute under it). */
export interface ProjectFile {
  path: string
  data: Uint8Array | string
}

export interface ExposeOptions {
  /** How to fill the workspace in bulk, e.g. `(files) => mountProjectFiles(container, files)`. */
  mount?: (files: ProjectFile[]) => Promise<void>
}

/** What the main thread exposes on the port. */
export interface WorkspaceWire {
  info(): { backend: WorkspaceBackend; root: string }
  readFile(path: string): Promise<WireResult<Uint8Array>>
  readText(path: string): Promise<WireResult<string>>
  writeFile(path: string, content: string | Uint8Array): Promise<WireResult<void>>
  list(path: string): Promise<WireResult<FileStat[]>>
  stat(path: string): Promise<WireResult<FileStat | undefined>>
  remove(path: string, options?: { recursive?: boolean }): Promise<WireResult<void>>
  mkdir(path: string, options?: { recursive?: boolean }): Promise<WireResult<void>>
  glob(pattern: string, options?: { cwd?: string; limit?: number }): Promise<WireResult<string[]>>
  grep(pattern: string, options?: { path?: string; include?: string; limit?: number }): Promise<WireResult<GrepMatch[]>>
  exec(command: string, options: WireExecOptions, onOutput?: (chunk: string) => void, onCancel?: RegisterCancel): Promise<WireResult<ExecResult>>
  /** Writes many files in one message (a fresh container is empty); `unavailable` when the side cannot mount. */
  mount(files: ProjectFile[]): Promise<WireResult<void>>
  /** Returns an id for `unwatch`. */
  watch(listener: ChangeListener): number
  unwatch(id: number): void
}

/**
 * Serves `workspace` on `port` (main thread). Returns a function that stops serving: it ends every watch and closes
 * the port. The worker's side also ends it with `dispose()`.
 */
export function exposeWorkspace(workspace: Workspace, port: MessagePort, extras: ExposeOptions = {}): () => void {
  const watchers = new Map<number, () => void>()
  let nextWatch = 1

  const wire: WorkspaceWire = {
    info: () => ({ backend: workspace.backend, root: workspace.root }),
    readFile: (path) => settle(() => workspace.readFile(path)),
    readText: (path) => settle(() => workspace.readText(path)),
    writeFile: (path, content) => settle(() => workspace.writeFile(path, content)),
    list: (path) => settle(() => workspace.list(path)),
    stat: (path) => settle(() => workspace.stat(path)),
    remove: (path, options) => settle(() => workspace.remove(path, options)),
    mkdir: (path, options) => settle(() => workspace.mkdir(path, options)),
    glob: (pattern, options) => settle(() => workspace.glob(pattern, options)),
    grep: (pattern, options) => settle(() => workspace.grep(pattern, options)),
    mount: (files) =>
      settle(async () => {
        if (!extras.mount) throw new WorkspaceError('unavailable', workspace.root, 'This workspace cannot be filled in bulk; write the files one by one.')
        await extras.mount(files)
      }),

    async exec(command, options, onOutput, onCancel) {
      const output = onOutput as Comlink.Remote<(chunk: string) => void> | undefined
      const register = onCancel as Comlink.Remote<RegisterCancel> | undefined
      const controller = new AbortController()
      // Calls on one port arrive in order, so once the last chunk is acknowledged every earlier one was delivered. The
      // result travels on another port, and without this wait it could overtake the end of the output.
      let delivered: Promise<unknown> = Promise.resolve()
      try {
        if (register) await register(Comlink.proxy(() => controller.abort()))
        return await settle(() =>
          workspace.exec(command, {
            ...options,
            signal: controller.signal,
            ...(output ? { onOutput: (chunk: string) => (delivered = output(chunk).catch(() => {})) } : {}),
          }),
        )
      } finally {
        await delivered
        output?.[Comlink.releaseProxy]()
        register?.[Comlink.releaseProxy]()
      }
    },

    watch(listener) {
      const remote = listener as Comlink.Remote<ChangeListener>
      const id = nextWatch++
      const stop = workspace.watch((change) => void remote(change).catch(() => {}))
      watchers.set(id, () => {
        stop()
        remote[Comlink.releaseProxy]()
      })
      return id
    },

    unwatch(id) {
      watchers.get(id)?.()
      watchers.delete(id)
    },
  }

  Comlink.expose(wire, port)
  return () => {
    for (const stop of watchers.values()) stop()
    watchers.clear()
    port.close()
  }
}

/** A `Workspace` served from another thread, which the caller ends with `dispose()`. */
export interface RemoteWorkspace extends Workspace {
  /** Fills the workspace with the project's files in one message (see `ExposeOptions.mount`). */
  mount(files: ProjectFile[]): Promise<void>
  dispose(): void
}

/**
 * The worker's side of `exposeWorkspace`. `backend` and `root` must be known synchronously; pass what the main thread
 * reported when it handed over the port (`info()` on the wire gives the same).
 */
export function connectWorkspace(
  port: MessagePort,
  info: { backend: WorkspaceBackend; root: string } = { backend: 'webcontainer', root: WORKSPACE_ROOT },
): RemoteWorkspace {
  const remote = Comlink.wrap<WorkspaceWire>(port)

  return {
    backend: info.backend,
    root: info.root,
    readFile: (path) => unwrap(remote.readFile(path)),
    readText: (path) => unwrap(remote.readText(path)),
    writeFile: (path, content) => unwrap(remote.writeFile(path, content)),
    list: (path) => unwrap(remote.list(path)),
    stat: (path) => unwrap(remote.stat(path)),
    remove: (path, options) => unwrap(remote.remove(path, options)),
    mkdir: (path, options) => unwrap(remote.mkdir(path, options)),
    glob: (pattern, options) => unwrap(remote.glob(pattern, options)),
    grep: (pattern, options) => unwrap(remote.grep(pattern, options)),
    mount: (files) => unwrap(remote.mount(files)),

    async exec(command, options) {
      const { signal, onOutput, ...rest } = options
      if (signal?.aborted) return { exitCode: 130, output: '', timedOut: false, aborted: true }
      let cancel: Comlink.Remote<Cancel> | undefined
      const onAbort = () => void cancel?.().catch(() => {})
      const register =
        signal &&
        Comlink.proxy((remoteCancel: Cancel) => {
          cancel = remoteCancel as Comlink.Remote<Cancel>
          if (signal.aborted) onAbort()
          else signal.addEventListener('abort', onAbort, { once: true })
        })
      const output = onOutput && Comlink.proxy((chunk: string) => onOutput(chunk))
      try {
        return await unwrap(remote.exec(command, rest, output, register))
      } finally {
        signal?.removeEventListener('abort', onAbort)
        cancel?.[Comlink.releaseProxy]()
      }
    },

    watch(listener) {
      const id = remote.watch(Comlink.proxy(listener))
      let stopped = false
      return () => {
        if (stopped) return
        stopped = true
        void id.then((value) => remote.unwatch(value)).catch(() => {})
      }
    },

    dispose() {
      remote[Comlink.releaseProxy]()
    },
  }
}

async function settle<T>(run: () => Promise<T>): Promise<WireResult<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    return { ok: false, error: toWire(error) }
  }
}

function toWire(error: unknown): WireError {
  if (error instanceof WorkspaceError) return { name: error.name, message: error.message, code: error.code, path: error.path }
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: String(error) }
}

async function unwrap<T>(call: Promise<WireResult<T>>): Promise<T> {
  const result = await call
  if (result.ok) return result.value
  const { name, message, code, path } = result.error
  if (code !== undefined) throw new WorkspaceError(code, path ?? '', message)
  const error = new Error(message)
  error.name = name
  throw error
}
