import { isInside, resolvePath } from '../path'
import { ABORTED_EXIT_CODE, type Program, type ProgramFiles, type ProgramRequest } from '../runtime/program'
import { NODE_USAGE, parseNodeCommand } from './command-line'
import { NODE_VERSION } from './engine'
import type { EngineChannel, EngineReply, EngineRunMessage } from './protocol'

/** Folders a script never needs from the snapshot: git's objects and packages this node cannot load anyway. */
const SKIPPED = new Set(['.git', 'node_modules'])
/** A project bigger than this goes to the engine without its largest files (a script rarely reads them). */
const SNAPSHOT_LIMIT_BYTES = 64 * 1024 * 1024
/** After a stop, how long the engine may take to hand back the files the script wrote before it is terminated. */
const STOP_GRACE_MS = 250

export interface NodeRuntime {
  run: Program
}

/**
 * The offline `node`. Each run gets a snapshot of the project's files (synchronous `fs` needs them inside the
 * engine; a reused engine gets only what changed since its last run) and, when it ends, the engine's changes are
 * written back through `request.files`. Engines are reused while
 * they end cleanly (so a warm run costs no wasm start-up); a stopped one is terminated.
 */
export function createNodeRuntime(startEngine: () => EngineChannel): NodeRuntime {
  const idle: EngineChannel[] = []
  const listeners = new WeakMap<EngineChannel, (reply: EngineReply) => void>()
  // What each engine holds of the project (path → size and time), so a run sends only the files that changed.
  const held = new WeakMap<EngineChannel, Map<string, string>>()
  let nextId = 1

  const acquire = (): EngineChannel => {
    const reused = idle.pop()
    if (reused) return reused
    const channel = startEngine()
    channel.onReply((reply) => listeners.get(channel)?.(reply))
    return channel
  }

  const run: Program = async (request) => {
    const command = parseNodeCommand(request.argv.slice(1), request.cwd, request.stdin)
    if (command.kind === 'version') {
      request.onStdout(`${NODE_VERSION}\n`)
      return { exitCode: 0 }
    }
    if (command.kind === 'help') {
      request.onStdout(NODE_USAGE)
      return { exitCode: 0 }
    }
    if (command.kind === 'error') {
      request.onStderr(command.message)
      return { exitCode: command.exitCode }
    }
    if (request.signal.aborted) return { exitCode: ABORTED_EXIT_CODE }
    let { entry } = command
    const root = request.files.root
    if (entry.kind === 'file') {
      const found = await mainFile(request.files, entry.path)
      if (!found) {
        request.onStderr(`node: Cannot find module '${entry.path}'\n`)
        return { exitCode: 1 }
      }
      entry = { ...entry, path: found }
    }
    const channel = acquire()
    const release = () => idle.push(channel)
    let project: Snapshot
    try {
      project = await snapshot(request.files, entry.kind === 'file' ? entry.path : undefined, held.get(channel) ?? new Map())
    } catch (error) {
      release()
      throw error
    }
    if (request.signal.aborted) {
      release()
      return { exitCode: ABORTED_EXIT_CODE }
    }

    const id = nextId++
    const stop = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false
      ? new Int32Array(new SharedArrayBuffer(4))
      : undefined
    const message: EngineRunMessage = {
      type: 'run',
      id,
      root,
      cwd: request.cwd,
      env: request.env,
      // A script read from stdin has stdin used up, as Node's has.
      stdin: entry.kind === 'source' && entry.name === '[stdin]' ? '' : request.stdin,
      entry,
      args: command.args,
      files: project.files,
      keep: project.keep,
      directories: project.directories,
      ...(stop ? { stop } : {}),
    }
    const done = await new Promise<Extract<EngineReply, { type: 'done' | 'failed' }> | undefined>((resolve) => {
      let graceTimer: ReturnType<typeof setTimeout> | undefined
      const finish = (reply: Extract<EngineReply, { type: 'done' | 'failed' }> | undefined) => {
        request.signal.removeEventListener('abort', onAbort)
        clearTimeout(graceTimer)
        listeners.delete(channel)
        resolve(reply)
      }
      const onAbort = () => {
        if (stop) Atomics.store(stop, 0, 1)
        channel.post({ type: 'stop', id })
        graceTimer = setTimeout(() => {
          channel.terminate()
          finish(undefined)
        }, STOP_GRACE_MS)
      }
      listeners.set(channel, (reply) => {
        // A worker that failed to load answers for every run (id -1).
        if (reply.id !== id && reply.id !== -1) return
        if (reply.type === 'output') {
          if (request.signal.aborted) return
          if (reply.fd === 1) request.onStdout(reply.text)
          else request.onStderr(reply.text)
          return
        }
        finish(reply)
      })
      request.signal.addEventListener('abort', onAbort)
      channel.post(message)
      if (request.signal.aborted) onAbort()
    })

    if (!done) return { exitCode: ABORTED_EXIT_CODE }
    if (done.type === 'failed') {
      channel.terminate()
      request.onStderr(`node: the JavaScript engine failed to start: ${done.message}\n`)
      return { exitCode: 1 }
    }
    if (done.spent || done.stopped || request.signal.aborted) channel.terminate()
    else {
      held.set(channel, project.held)
      release()
    }
    await applyChanges(request.files, done.changes)
    return { exitCode: done.stopped || request.signal.aborted ? ABORTED_EXIT_CODE : done.exitCode }
  }

  return { run }
}

/**
 * The script `node <path>` runs, found as Node finds its main module: the file itself, else with `.js` or `.json`
 * added (`node test` runs test.js), else a folder's package.json `main` or its index.js.
 */
async function mainFile(files: ProgramFiles, path: string): Promise<string | undefined> {
  const isFile = async (candidate: string) => (await files.stat(candidate))?.type === 'file'
  for (const candidate of [path, `${path}.js`, `${path}.json`]) {
    if (await isFile(candidate)) return candidate
  }
  if ((await files.stat(path))?.type !== 'directory') return undefined
  try {
    const manifest: unknown = JSON.parse(new TextDecoder().decode(await files.readFile(`${path}/package.json`)))
    const main = manifest && typeof manifest === 'object' ? (manifest as { main?: unknown }).main : undefined
    if (typeof main === 'string') {
      const target = resolvePath(path, main)
      for (const candidate of [target, `${target}.js`, `${target}/index.js`]) if (await isFile(candidate)) return candidate
    }
  } catch {
    // No package.json, or not JSON: Node falls back to index.js too.
  }
  return (await isFile(`${path}/index.js`)) ? `${path}/index.js` : undefined
}

interface Snapshot extends Pick<EngineRunMessage, 'files' | 'keep' | 'directories'> {
  /** What the engine holds once it has this snapshot. */
  held: Map<string, string>
}

/**
 * The project's files, without `.git` and `node_modules` and within the snapshot limit: read (as bytes) only where
 * the engine does not already hold them as they are.
 */
async function snapshot(files: ProgramFiles, entry: string | undefined, before: Map<string, string>): Promise<Snapshot> {
  const found: { path: string; size: number; modified: number }[] = []
  const directories: string[] = []
  const walk = async (directory: string): Promise<void> => {
    directories.push(directory)
    const entries = await files.list(directory)
    await Promise.all(
      entries.map(async (item) => {
        if (item.type === 'directory') {
          // Skipped folders still exist for the script (`existsSync('node_modules')`), only empty.
          if (SKIPPED.has(item.name)) directories.push(item.path)
          else await walk(item.path)
        } else found.push({ path: item.path, size: item.size, modified: item.modified })
      }),
    )
  }
  await walk(files.root)
  if (entry && !isInside(files.root, entry)) {
    const stat = await files.stat(entry)
    if (stat) found.push({ path: entry, size: stat.size, modified: stat.modified })
  }
  // Smallest first, so a limit leaves out a few large files rather than many sources.
  found.sort((a, b) => (a.path === entry ? -1 : b.path === entry ? 1 : a.size - b.size))
  let total = 0
  const kept = found.filter((file) => (total += file.size) <= SNAPSHOT_LIMIT_BYTES || file.path === entry)
  const held = new Map(kept.map((file) => [file.path, `${file.size}:${file.modified}`]))
  const changed = kept.filter((file) => before.get(file.path) !== held.get(file.path))
  const contents = await Promise.all(changed.map(async ({ path, modified }) => ({ path, modified, content: await files.readFile(path) })))
  const keep = kept.filter((file) => before.get(file.path) === held.get(file.path)).map((file) => file.path)
  return { files: contents, keep, directories, held }
}

async function applyChanges(files: ProgramFiles, changes: Extract<EngineReply, { type: 'done' }>['changes']): Promise<void> {
  for (const directory of changes.directories) await files.mkdir(directory, { recursive: true })
  for (const path of changes.removals) {
    if (await files.stat(path)) await files.remove(path, { recursive: true })
  }
  for (const write of changes.writes) await files.writeFile(write.path, write.content)
}

/** The engine in its own dedicated worker, started from the agent's worker. */
function startWorkerEngine(): EngineChannel {
  const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module', name: 'tabcode-node' })
  return {
    post: (message) => worker.postMessage(message),
    onReply: (listener) => {
      worker.onmessage = (event: MessageEvent<EngineReply>) => listener(event.data)
      worker.onerror = (event) => {
        event.preventDefault()
        listener({ type: 'failed', id: -1, message: event.message || 'the engine worker failed to load' })
      }
    },
    terminate: () => worker.terminate(),
  }
}

let defaultRuntime: NodeRuntime | undefined

/** `node` for the shell: QuickJS in a dedicated worker, with Node's surface over the project's files. */
export const runNode: Program = (request: ProgramRequest) => {
  defaultRuntime ??= createNodeRuntime(startWorkerEngine)
  return defaultRuntime.run(request)
}
