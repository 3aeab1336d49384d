import type { QuickJSWASMModule } from 'quickjs-emscripten-core'
import { runInEngine } from './engine'
import { MemoryFs } from './memory-fs'
import type { EngineReply, EngineRequest } from './protocol'
import { isTypeScript } from './resolve'

/** Output reaches the shell at most this often while a script runs (one message per console.log would flood it). */
const FLUSH_MS = 16
const FLUSH_BYTES = 16 * 1024

export interface EngineHostOptions {
  loadQuickJS: () => Promise<QuickJSWASMModule>
  loadStripTypes: () => Promise<(source: string, path: string) => string>
  reply: (message: EngineReply) => void
}

/**
 * The engine's side of the channel: runs each `run` message in a fresh QuickJS runtime and replies with its output
 * and, at the end, the files it changed. `stop` messages reach it while the script waits on a timer; a busy loop is
 * stopped through the shared flag (or by terminating the worker).
 */
export function createEngineHost(options: EngineHostOptions): (request: EngineRequest) => Promise<void> {
  let quickjs: Promise<QuickJSWASMModule> | undefined
  let stripTypes: ((source: string, path: string) => string) | undefined
  // The project's files as of the last run: the next one sends only what changed.
  let cache = new Map<string, { path: string; content: Uint8Array; modified: number }>()
  const stopRequested = new Set<number>()
  const wakers = new Map<number, () => void>()

  return async (request) => {
    if (request.type === 'stop') {
      stopRequested.add(request.id)
      wakers.get(request.id)?.()
      return
    }
    const { id } = request
    try {
      quickjs ??= options.loadQuickJS()
      const module = await quickjs
      const files = new Map<string, { path: string; content: Uint8Array; modified: number }>()
      for (const path of request.keep) {
        const kept = cache.get(path)
        if (kept) files.set(path, kept)
      }
      for (const file of request.files) files.set(file.path, file)
      cache = files
      const entryPath = request.entry.kind === 'file' ? request.entry.path : ''
      if (!stripTypes && (isTypeScript(entryPath) || [...files.keys()].some(isTypeScript))) stripTypes = await options.loadStripTypes()
      const fs = new MemoryFs(files.values(), [...request.directories, request.root, request.cwd, '/tmp'])
      const pending: Record<1 | 2, string> = { 1: '', 2: '' }
      let flushed = 0
      const flush = () => {
        for (const fd of [1, 2] as const) {
          if (pending[fd]) options.reply({ type: 'output', id, fd, text: pending[fd] })
          pending[fd] = ''
        }
        flushed = performance.now()
      }
      let spent = false
      const result = await runInEngine({
        quickjs: module,
        fs,
        root: request.root,
        cwd: request.cwd,
        env: request.env,
        stdin: request.stdin,
        entry: request.entry,
        args: request.args,
        write: (fd, text) => {
          pending[fd] += text
          if (pending[fd].length > FLUSH_BYTES || performance.now() - flushed > FLUSH_MS) flush()
        },
        shouldStop: () => stopRequested.has(id) || (request.stop !== undefined && Atomics.load(request.stop, 0) !== 0),
        // Waiting on a timer: what the script printed so far is shown now, not when it ends.
        sleep: (ms) =>
          new Promise<void>((resolve) => {
            flush()
            const timer = setTimeout(done, ms)
            function done() {
              clearTimeout(timer)
              wakers.delete(id)
              resolve()
            }
            wakers.set(id, done)
          }),
        onPoll: () => {
          if ((pending[1] || pending[2]) && performance.now() - flushed > FLUSH_MS) flush()
        },
        stripTypes,
        onEngineSpent: () => {
          spent = true
          quickjs = undefined
        },
      })
      flush()
      options.reply({ type: 'done', id, exitCode: result.exitCode, stopped: result.stopped, changes: fs.changes(request.root), spent })
    } catch (error) {
      options.reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) })
    } finally {
      stopRequested.delete(id)
    }
  }
}
