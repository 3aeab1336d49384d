import { ABORTED_EXIT_CODE, type ProgramFiles, type ProgramRequest, type ProgramResult } from '../runtime/program'
import type { EngineMessage, FileDownload, FileUpload, HostMessage, PackageWheel, PythonJob } from './protocol'
import type { RuntimeDownload } from '../workspace'
import { byDepth, compareTrees, DIRECTORY, fileSignature, readProjectTree } from './sync'
import { defineError } from '../../core/errors'

/** What the host needs of a worker; a fake runs the engine in-process in the tests. */
export interface EngineWorker {
  postMessage(message: HostMessage): void
  terminate(): void
  onmessage: ((event: { data: EngineMessage }) => void) | null
  onerror: ((event: { message?: string }) => void) | null
}

export interface PythonHostOptions {
  createWorker: () => EngineWorker
  /** Where the runtime's files are served from, on our own origin. */
  indexURL: string
  /** How long an interrupted program may take to stop before its worker is terminated. */
  stopGrace?: number
  /** The packages installed with `pip`, which every run's interpreter must have (none when not given). */
  packages?: () => PackageWheel[]
}

/** The runtime failed to load or its worker died; the next run starts a new one. */
export const PythonUnavailableError = defineError('PythonUnavailableError', (message: string) => ({ message, data: {} }))

interface Session {
  worker: EngineWorker
  ready: Promise<string>
  interrupt: Int32Array | undefined
  listeners: Set<(message: EngineMessage) => void>
  /** The project tree (path → signature) as the engine last received it, and from which project. */
  known: Map<string, string>
  files: ProgramFiles | undefined
}

/**
 * Runs Python jobs in one dedicated worker, started on first use and kept warm: before each run it uploads what
 * changed in the project since the engine last saw it, and after it writes back what Python changed, through the
 * request's own files (so the file tree and the step's snapshot see it). Stop interrupts the interpreter and, if
 * it does not stop within the grace period, terminates the worker.
 */
export class PythonHost {
  private session: Session | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private nextID = 1

  constructor(private readonly options: PythonHostOptions) {}

  /** Runs jobs one after another: there is one interpreter and one copy of the files. */
  run(job: PythonJob, request: ProgramRequest): Promise<ProgramResult> {
    const result = this.queue.then(() => this.runNow(job, request))
    this.queue = result.catch(() => undefined)
    return result
  }

  private async runNow(job: PythonJob, request: ProgramRequest): Promise<ProgramResult> {
    if (request.signal.aborted) return { exitCode: ABORTED_EXIT_CODE }
    const session = this.start(request)
    try {
      await waitOrAbort(session.ready, request.signal)
    } catch (error) {
      if (request.signal.aborted) return { exitCode: ABORTED_EXIT_CODE }
      this.stop(session)
      request.onStderr(`${request.argv[0]}: ${error instanceof Error ? error.message : String(error)}\n`)
      return { exitCode: 1 }
    }
    if (request.signal.aborted) return { exitCode: ABORTED_EXIT_CODE }

    const { upload, tree } = await this.prepareUpload(session, request)
    const id = this.nextID++
    const done = new Promise<Extract<EngineMessage, { type: 'done' }>>((resolve, reject) => {
      const listener = (message: EngineMessage) => {
        if (message.type === 'output' && message.id === id) (message.stream === 'stdout' ? request.onStdout : request.onStderr)(message.text)
        else if (message.type === 'done' && message.id === id) {
          session.listeners.delete(listener)
          resolve(message)
        } else if (message.type === 'failed') {
          session.listeners.delete(listener)
          reject(new PythonUnavailableError(message.message))
        }
      }
      session.listeners.add(listener)
    })
    done.catch(() => undefined)
    if (session.interrupt) Atomics.store(session.interrupt, 0, 0)
    session.known = tree
    session.files = request.files
    session.worker.postMessage({
      type: 'run',
      id,
      request: { job, argv0: request.argv[0] ?? 'python3', cwd: request.cwd, env: request.env, stdin: request.stdin, upload, packages: this.options.packages?.() ?? [] },
    })

    const stopped = new Promise<'stopped'>((resolve) => {
      const onAbort = () => resolve('stopped')
      if (request.signal.aborted) onAbort()
      else request.signal.addEventListener('abort', onAbort, { once: true })
    })
    try {
      const first = await Promise.race([done, stopped])
      if (first !== 'stopped') {
        await this.applyDownload(session, request.files, first.download)
        if (!first.reusable) this.replace(session)
        return { exitCode: first.exitCode }
      }
      // SIGINT first: Python raises KeyboardInterrupt and the files it wrote so far still come back.
      if (session.interrupt) Atomics.store(session.interrupt, 0, 2)
      const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), this.options.stopGrace ?? 300))
      const settled = await Promise.race([done, grace])
      if (settled === 'late') this.stop(session)
      else {
        await this.applyDownload(session, request.files, settled.download)
        if (!settled.reusable) this.replace(session)
      }
      return { exitCode: ABORTED_EXIT_CODE }
    } catch (error) {
      this.stop(session)
      request.onStderr(`${request.argv[0]}: ${error instanceof Error ? error.message : String(error)}\n`)
      return { exitCode: 1 }
    }
  }

  /** The running session, or a new worker (its first download reported as a notice when it is not cached). */
  private start(request: Pick<ProgramRequest, 'onNotice' | 'onDownload'>): Session {
    if (this.session) return this.session
    const worker = this.options.createWorker()
    const interrupt = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false ? new Int32Array(new SharedArrayBuffer(4)) : undefined
    const listeners = new Set<(message: EngineMessage) => void>()
    const progress = downloadProgress(request.onNotice ?? (() => undefined), request.onDownload)
    const ready = new Promise<string>((resolve, reject) => {
      listeners.add(function startup(message) {
        if (message.type === 'progress') progress.update(message.loaded, message.total)
        else if (message.type === 'ready') {
          progress.end()
          listeners.delete(startup)
          resolve(message.version)
        } else if (message.type === 'failed') {
          progress.end()
          listeners.delete(startup)
          reject(new PythonUnavailableError(`Python could not be loaded: ${message.message}`))
        }
      })
    })
    ready.catch(() => undefined)
    worker.onmessage = (event) => {
      for (const listener of [...listeners]) listener(event.data)
    }
    worker.onerror = (event) => {
      for (const listener of [...listeners]) listener({ type: 'failed', message: event.message || 'the Python worker stopped' })
    }
    worker.postMessage({ type: 'init', indexURL: this.options.indexURL, interrupt: interrupt?.buffer as SharedArrayBuffer | undefined })
    this.session = { worker, ready, interrupt, listeners, known: new Map(), files: undefined }
    return this.session
  }

  /** A new worker in place of one whose interpreter cannot start clean again, loading while nothing waits for it. */
  private replace(session: Session) {
    this.stop(session)
    this.start({})
  }

  private stop(session: Session) {
    session.worker.terminate()
    if (this.session === session) this.session = undefined
  }

  private async prepareUpload(session: Session, request: ProgramRequest): Promise<{ upload: FileUpload; tree: Map<string, string> }> {
    const { files } = request
    const reset = session.files !== files
    const before = reset ? new Map<string, string>() : session.known
    const tree = await readProjectTree(files, files.root)
    const changes = compareTrees(before, tree)
    const write: FileUpload['write'] = []
    for (const path of changes.write) {
      const data = await files.readFile(path)
      write.push({ path, data, modified: Number(tree.get(path)!.split(':')[1]) })
    }
    return { upload: { reset, root: files.root, remove: changes.remove, mkdir: byDepth(changes.mkdir), write }, tree }
  }

  /** Python's changes into the project; the engine's new tree becomes what it is known to hold. */
  private async applyDownload(session: Session, files: ProgramFiles, download: FileDownload) {
    for (const path of download.remove) {
      await files.remove(path, { recursive: true }).catch(() => undefined)
      for (const known of [...session.known.keys()]) if (known === path || known.startsWith(`${path}/`)) session.known.delete(known)
    }
    for (const path of byDepth(download.mkdir)) {
      await files.mkdir(path, { recursive: true })
      session.known.set(path, DIRECTORY)
    }
    for (const file of download.write) {
      await files.writeFile(file.path, file.data)
      const stat = await files.stat(file.path)
      // The engine's copy is the same bytes; recording the project's signature keeps the next upload empty.
      if (stat) session.known.set(file.path, fileSignature(stat.size, stat.modified))
    }
  }
}

function waitOrAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/**
 * One notice line that grows as the first download goes: `Loading Python (first use, 12 MB)… 40% 80% done`, and the
 * same download as numbers for the card's bar, at most every DOWNLOAD_REPORT_MS: the first and the last at once, and
 * one held back is sent when its interval ends, so a download that stalls shows where it stalled.
 */
function downloadProgress(write: (text: string) => void, report?: (download: RuntimeDownload) => void) {
  let started = false
  let shown = -1
  let reported = -Infinity
  let held: ReturnType<typeof setTimeout> | undefined
  let latest: RuntimeDownload | undefined
  const send = () => {
    held = undefined
    reported = performance.now()
    if (latest) report?.(latest)
  }
  return {
    update(loaded: number, total: number) {
      latest = { what: 'Python', loaded: Math.min(loaded, total), total }
      const wait = reported + DOWNLOAD_REPORT_MS - performance.now()
      if (loaded >= total || wait <= 0) {
        if (held !== undefined) clearTimeout(held)
        send()
      } else held ??= setTimeout(send, wait)
      if (!started) {
        started = true
        write(`Loading Python (first use, ${Math.round(total / 1_000_000)} MB)…`)
      }
      const percent = Math.min(100, Math.floor((loaded / Math.max(total, 1)) * 5) * 20)
      if (percent > shown && percent < 100) {
        shown = percent
        write(` ${percent}%`)
      }
    },
    end() {
      if (started) write(' done\n')
      started = false
      if (held !== undefined) clearTimeout(held)
      held = undefined
      latest = undefined
      reported = -Infinity
    },
  }
}

const DOWNLOAD_REPORT_MS = 100
