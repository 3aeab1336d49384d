import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule, VmFunctionImplementation } from 'quickjs-emscripten-core'
import { dirname } from '../path'
import { FsError, type MemoryFs } from './memory-fs'
import prelude from './node-prelude.js?raw'
import testModule from './node-test.js?raw'
import { markDiscardedPromises } from './discarded-promises'
import { findTestFiles } from './test-files'
import { formatOf, hasModuleSyntax, isTypeScript, resolveModule } from './resolve'

/** What `node` reports as its version: the Node release whose surface the prelude follows. */
export const NODE_VERSION = 'v22.12.0'
export const QUICKJS_VERSION = 'quickjs-emscripten-0.32.0'
const EXEC_PATH = '/usr/local/bin/node'

/** QuickJS keeps its heap inside the engine's WebAssembly memory; these keep a runaway script from taking the tab. */
export const MEMORY_LIMIT_BYTES = 256 * 1024 * 1024
// Deeper than this and the WebAssembly recursion overflows the host's own stack before QuickJS can refuse it.
export const STACK_LIMIT_BYTES = 256 * 1024

/** What to run: a file, or source given with `-e`/`-p` or on stdin. */
export type EngineEntry =
  | { kind: 'file'; path: string; conditions?: string[] }
  | { kind: 'source'; code: string; name: '[eval]' | '[stdin]'; print: boolean; module: boolean | undefined }
  /** `node --test`: the files or folders given (none: the working folder), and `--conditions`. */
  | { kind: 'tests'; paths: string[]; conditions: string[] }

export interface EngineRun {
  quickjs: QuickJSWASMModule
  fs: MemoryFs
  root: string
  cwd: string
  env: Record<string, string>
  stdin: string
  entry: EngineEntry
  /** Arguments after the script, as `process.argv.slice(2)` (or `.slice(1)` for `-e`). */
  args: string[]
  write: (fd: 1 | 2, text: string) => void
  /** Polled by QuickJS while the script runs: true ends it (Stop, timeout). */
  shouldStop: () => boolean
  /** Waits for the next timer; rejects or resolves early when stopped, then `shouldStop` answers true. */
  sleep: (ms: number) => Promise<void>
  /** `.ts` files with their types removed; loaded only when a TypeScript file is run. */
  stripTypes?: (source: string, path: string) => string
  now?: () => number
  /** Called at each of QuickJS's interrupt checks, even inside a busy loop (to pass on output written before it). */
  onPoll?: () => void
  /** Called when this QuickJS module can no longer run anything (its WebAssembly instance aborted). */
  onEngineSpent?: () => void
}

export interface EngineResult {
  exitCode: number
  /** True when `shouldStop` ended it. */
  stopped: boolean
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/**
 * Runs one script in a fresh QuickJS runtime: the prelude gives it Node's surface over `fs`, then the entry runs,
 * then timers and promise jobs until none are left (or `process.exit`, or a stop). An uncaught error prints a
 * Node-like report to stderr and exits 1.
 */
export async function runInEngine(run: EngineRun): Promise<EngineResult> {
  const now = run.now ?? (() => performance.now())
  const started = now()
  let exitCode: number | undefined
  let stopped = false
  // The prelude always runs to its end: stopped halfway it would leave handles QuickJS cannot free.
  let armed = false
  const write = (fd: 1 | 2, text: string) => {
    if (exitCode === undefined && !stopped) run.write(fd, text)
  }

  const runtime = run.quickjs.newRuntime()
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES)
  runtime.setMaxStackSize(STACK_LIMIT_BYTES)
  runtime.setInterruptHandler(() => {
    run.onPoll?.()
    if (!armed) return false
    if (exitCode !== undefined) return true
    if (run.shouldStop()) stopped = true
    return stopped
  })
  const context = runtime.newContext()
  const loadUnit = (path: string): { format: 'cjs' | 'esm' | 'json'; source: string } => {
    let source = decoder.decode(run.fs.read(path))
    if (isTypeScript(path)) {
      if (!run.stripTypes) throw new Error(`${path}: TypeScript is not loaded`)
      source = run.stripTypes(source, path)
    }
    if (source.startsWith('#!')) source = `//${source.slice(2)}`
    const format = formatOf(run.fs, path, source)
    if (format !== 'json') source = markDiscardedPromises(source, format === 'esm' ? 'module' : 'commonjs')
    return { format, source }
  }

  const conditions = run.entry.kind === 'source' ? [] : (run.entry.conditions ?? [])
  try {
    const exit = (code: number) => {
      exitCode ??= code
      run.fs.freeze()
    }
    installHost(context, run, { write, now, started, exit, loadUnit, conditions })
    runtime.setModuleLoader(
      (name) => moduleSource(context, name, loadUnit),
      (base, requested) => {
        const directory = base.startsWith('/') ? dirname(base) : run.cwd
        const found = resolveModule(run.fs, directory, requested, base, { conditions, mode: 'import' })
        // QuickJS drops a normalizer's error; the loader raises it for this name instead.
        if (found.kind === 'error') return `node:missing:${JSON.stringify(found.message)}`
        return found.kind === 'builtin' ? `node:${found.name}` : found.path
      },
    )
    unwrapVoid(context, context.evalCode(prelude, 'node:internal/prelude', { type: 'global' }))
    unwrapVoid(context, context.evalCode(testModule, 'node:internal/test', { type: 'global' }))
    armed = true

    let pending: QuickJSHandle | undefined
    let source: ReturnType<typeof entrySource>
    try {
      source = entrySource(run, loadUnit)
    } catch (error) {
      // The entry could not be prepared: a TypeScript file sucrase cannot parse, say.
      const path = run.entry.kind === 'file' ? run.entry.path : run.entry.kind === 'source' ? run.entry.name : 'node --test'
      write(2, `${path}: ${error instanceof Error ? error.message : String(error)}\n`)
      return { exitCode: 1, stopped: false }
    }
    const outcome = context.evalCode(...source)
    let failure: QuickJSHandle | undefined
    if (outcome.error) failure = outcome.error
    // A module's evaluation promise rejects with what its top level threw; a script's value matters only to -p.
    else if (source[2].type === 'module' || (run.entry.kind === 'source' && run.entry.print)) pending = outcome.value
    else outcome.value.dispose()

    // The event loop: promise jobs, then the earliest due timer, until nothing is left to do.
    while (!failure && exitCode === undefined && !stopped) {
      const jobs = runtime.executePendingJobs(-1)
      if (jobs.error) {
        failure = jobs.error
        break
      }
      if (pending && source[2].type === 'module' && context.typeof(pending) === 'object') {
        const state = context.getPromiseState(pending)
        if (state.type === 'rejected') {
          failure = state.error
          break
        }
        if (state.type === 'fulfilled' && state.notAPromise !== true) state.value.dispose()
      }
      if (exitCode !== undefined || stopped) break
      // A rejection nobody can handle any more, or an error thrown in a microtask: Node ends the run with it.
      const unhandled = callGlobal(context, '__nodeTakeUnhandled')
      if (unhandled.error) {
        failure = unhandled.error
        break
      }
      if (exitCode !== undefined || stopped) break
      const next = callGlobal(context, '__runTimers')
      if (next.error) {
        failure = next.error
        break
      }
      if (next.value < 0) {
        // Nothing left: the prelude's finishers (the test report) and 'beforeExit' may still schedule more.
        const after = callGlobal(context, '__nodeBeforeExit')
        if (after.error) {
          failure = after.error
          break
        }
        if (after.value > 0 || runtime.hasPendingJob()) continue
        break
      }
      if (next.value > 0) await run.sleep(next.value)
      if (run.shouldStop()) stopped = true
    }

    const flushed = callGlobal(context, '__nodeFlush')
    flushed.error?.dispose()
    if (run.entry.kind === 'source' && run.entry.print && !failure && pending && exitCode === undefined && !stopped) {
      const text = callGlobal(context, '__nodeInspect', pending)
      if (!text.error) write(1, `${text.text}\n`)
    }
    pending?.dispose()
    if (stopped) {
      failure?.dispose()
      return { exitCode: 130, stopped: true }
    }
    if (exitCode !== undefined) {
      failure?.dispose()
      return { exitCode, stopped: false }
    }
    if (failure) {
      const report = describeFailure(context, failure, run.fs)
      failure.dispose()
      if (stopped) return { exitCode: 130, stopped: true }
      write(2, report)
      // 'exit' listeners still run, with code 1, as in Node.
      const one = context.newNumber(1)
      const code = callGlobal(context, '__nodeExitCode', one)
      one.dispose()
      code.error?.dispose()
      return { exitCode: exitCode ?? 1, stopped: false }
    }
    const code = callGlobal(context, '__nodeExitCode')
    return { exitCode: code.error ? 1 : code.value, stopped: false }
  } finally {
    try {
      context.dispose()
      runtime.dispose()
    } catch {
      // QuickJS found objects still alive (a run ended by the memory limit can leave some) and aborted its
      // WebAssembly instance: that engine is spent, and the next run needs a new one.
      run.onEngineSpent?.()
    }
  }
}

interface HostHooks {
  write: (fd: 1 | 2, text: string) => void
  now: () => number
  started: number
  exit: (code: number) => void
  loadUnit: (path: string) => { format: 'cjs' | 'esm' | 'json'; source: string }
  conditions: string[]
}

const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {'

/** The only host functions the script can reach, as `__host` (the prelude takes it and removes the global). */
function installHost(context: QuickJSContext, run: EngineRun, hooks: HostHooks): void {
  const host = context.newObject()
  const define = (name: string, fn: VmFunctionImplementation<QuickJSHandle>) => {
    const handle = context.newFunction(name, fn)
    context.setProp(host, name, handle)
    handle.dispose()
  }
  const text = (handle: QuickJSHandle | undefined) => (handle ? context.getString(handle) : '')
  const errorJson = (error: unknown) =>
    JSON.stringify(error instanceof FsError ? { code: error.code, path: error.path } : { code: 'EIO', path: String(error) })
  const bytes = (handle: QuickJSHandle): Uint8Array => {
    if (context.typeof(handle) === 'string') return encoder.encode(context.getString(handle))
    const lifetime = context.getArrayBuffer(handle)
    const copy = lifetime.value.slice()
    lifetime.dispose()
    return copy
  }

  define('write', (fd, chunk) => {
    hooks.write(context.getNumber(fd!) === 2 ? 2 : 1, text(chunk))
    return undefined
  })
  define('now', () => context.newNumber(hooks.now()))
  define('exit', (code) => {
    hooks.exit(context.getNumber(code!) | 0)
    return undefined
  })
  define('random', (size) => context.newArrayBuffer(globalThis.crypto.getRandomValues(new Uint8Array(context.getNumber(size!))).buffer))
  define('encode', (value) => context.newArrayBuffer(encoder.encode(text(value)).buffer))
  define('decode', (buffer) => context.newString(decoder.decode(bytes(buffer!))))
  define('readBytes', (path) => {
    try {
      const content = run.fs.read(text(path))
      return context.newArrayBuffer(content.slice().buffer)
    } catch (error) {
      return context.newString(errorJson(error))
    }
  })
  define('writeFile', (path, data, append) => {
    try {
      run.fs.write(text(path), bytes(data!), context.dump(append!) === true)
      return context.newString('')
    } catch (error) {
      return context.newString(errorJson(error))
    }
  })
  define('fs', (opHandle, pathHandle, argHandle) => {
    const op = text(opHandle)
    const path = text(pathHandle)
    const raw = text(argHandle)
    const arg: unknown = raw ? JSON.parse(raw) : undefined
    try {
      return context.newString(JSON.stringify({ value: fsOp(run.fs, op, path, arg) }))
    } catch (error) {
      return context.newString(JSON.stringify({ error: JSON.parse(errorJson(error)) }))
    }
  })
  define('resolve', (directory, request, from) =>
    context.newString(JSON.stringify(resolveModule(run.fs, text(directory), text(request), text(from), { conditions: hooks.conditions, mode: 'require' }))),
  )
  define('load', (path) => {
    try {
      return context.newString(JSON.stringify(hooks.loadUnit(text(path))))
    } catch (error) {
      return context.newString(JSON.stringify({ error: { code: 'ERR_LOAD', message: error instanceof Error ? error.message : String(error) } }))
    }
  })
  define('compile', (source, filename) => {
    // The wrapper's head shares the first line, so the script's own line numbers stay as they are in the file.
    const wrapped = `${WRAPPER_HEAD}${text(source)}\n})`
    const result = context.evalCode(wrapped, text(filename), { type: 'global' })
    // A syntax error goes back to the script as the very error QuickJS made, so `require` throws it.
    return result.error ? { error: result.error } : result.value
  })

  context.setProp(context.global, '__host', host)
  host.dispose()
  const info = {
    argv: [EXEC_PATH, ...(run.entry.kind === 'file' ? [run.entry.path] : []), ...run.args],
    env: run.env,
    cwd: run.cwd,
    root: run.root,
    stdin: run.stdin,
    version: NODE_VERSION,
    quickjs: QUICKJS_VERSION,
    started: hooks.started,
  }
  const value = context.unwrapResult(context.evalCode(`(${JSON.stringify(info)})`, 'node:internal/info', { type: 'global' }))
  context.setProp(context.global, '__info', value)
  value.dispose()
}

function fsOp(fs: MemoryFs, op: string, path: string, arg: unknown): unknown {
  const options = (arg ?? {}) as { recursive?: boolean; directory?: boolean; rm?: boolean }
  switch (op) {
    case 'exists':
      return fs.exists(path)
    case 'stat':
      return fs.stat(path)
    case 'readdir':
      return fs.list(path)
    case 'mkdir':
      return fs.mkdir(path, options.recursive === true)
    case 'remove':
      if (options.rm && !options.recursive && fs.exists(path) && fs.stat(path).type === 'directory') {
        throw new FsError('EISDIR', path)
      }
      return fs.remove(path, options)
    case 'rename':
      return fs.rename(path, String(arg))
    default:
      throw new Error(`unknown fs operation ${op}`)
  }
}

/** The arguments of the entry's `evalCode`: a file as a module or through the CommonJS loader, or eval'd source. */
function entrySource(
  run: EngineRun,
  loadUnit: HostHooks['loadUnit'],
): [string, string, { type: 'global' | 'module' }] {
  const { entry } = run
  if (entry.kind === 'tests') {
    const found = findTestFiles(run.fs, run.cwd, entry.paths)
    // A path that is not there: Node's message on stderr, and exit 1.
    if (found.kind === 'error') return [`__nodeRefuse(${JSON.stringify(found.message)})`, 'node:internal/test-files', { type: 'global' }]
    return [`__nodeRunTestFiles(${JSON.stringify(found.files)})`, 'node:internal/test-files', { type: 'global' }]
  }
  if (entry.kind === 'file') {
    const unit = loadUnit(entry.path)
    if (unit.format === 'esm') return [withImportMeta(unit.source, entry.path), entry.path, { type: 'module' }]
    return [`__nodeMain(${JSON.stringify(entry.path)})`, 'node:internal/main', { type: 'global' }]
  }
  const module = entry.module ?? (!entry.print && hasModuleSyntax(entry.code))
  if (module) return [markDiscardedPromises(entry.code, 'module'), `${run.cwd}/${entry.name}`, { type: 'module' }]
  // -p prints the value of the last statement, which the hook would replace.
  const code = entry.print ? entry.code : markDiscardedPromises(entry.code, 'script')
  return [`__nodeEvalScope(${JSON.stringify(entry.name)});\n(0, eval)(${JSON.stringify(code)})`, entry.name, { type: 'global' }]
}

/** The source QuickJS gets for an `import`: a file's own text, or a module that re-exports a built-in or CommonJS. */
function moduleSource(context: QuickJSContext, name: string, loadUnit: HostHooks['loadUnit']): string | { error: Error } {
  if (name.startsWith('node:missing:')) return { error: new Error(JSON.parse(name.slice(13)) as string) }
  if (name.startsWith('node:')) {
    const builtin = name.slice(5)
    const keys = context.evalCode(`Object.keys(__nodeBuiltin(${JSON.stringify(builtin)})).join(',')`, 'node:internal/keys', { type: 'global' })
    const names = keys.error ? '' : context.getString(keys.value)
    ;(keys.error ?? keys.value).dispose()
    const exported = names.split(',').filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
    return [
      `const m = __nodeBuiltin(${JSON.stringify(builtin)})`,
      'export default m',
      ...exported.map((key) => `export const ${key} = m.${key}`),
    ].join('\n')
  }
  try {
    const unit = loadUnit(name)
    if (unit.format === 'esm') return withImportMeta(unit.source, name)
    if (unit.format === 'json') return `export default ${unit.source}`
    return `const m = __nodeRequire(${JSON.stringify(name)})\nexport default m`
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }
}

/** `import.meta.url`, `.filename` and `.dirname`, as Node gives them; on the first line, so line numbers stay. */
function withImportMeta(source: string, path: string): string {
  const meta = `Object.assign(import.meta, { url: ${JSON.stringify(`file://${path}`)}, filename: ${JSON.stringify(path)}, dirname: ${JSON.stringify(dirname(path))} });`
  return meta + source
}

type GlobalCall<T> = { error: QuickJSHandle; value?: undefined; text?: undefined } | { error?: undefined; value: T; text: string }

function callGlobal(context: QuickJSContext, name: string, ...args: QuickJSHandle[]): GlobalCall<number> {
  const fn = context.getProp(context.global, name)
  const result = context.callFunction(fn, context.undefined, ...args)
  fn.dispose()
  if (result.error) return { error: result.error }
  const value = result.value
  const type = context.typeof(value)
  const out = { value: type === 'number' ? context.getNumber(value) : 0, text: type === 'string' ? context.getString(value) : '' }
  value.dispose()
  return out
}

function unwrapVoid(context: QuickJSContext, result: ReturnType<QuickJSContext['evalCode']>): void {
  context.unwrapResult(result).dispose()
}

/**
 * What Node prints for an uncaught error: where it was thrown, with that line of the file and a caret, then the
 * error and its stack.
 */
function describeFailure(context: QuickJSContext, error: QuickJSHandle, fs: MemoryFs): string {
  const reported = callGlobal(context, '__nodeUncaught', error)
  const raw = reported.error ? String(context.dump(reported.error)) : reported.text
  reported.error?.dispose()
  // Columns on a file's first line count the CommonJS wrapper's head (or the import.meta line); not the file's.
  const text = raw.replace(/(\/[^\s():]+):1:(\d+)/g, (match, file: string, column: string) => {
    const offset = Number(column) > WRAPPER_HEAD.length ? WRAPPER_HEAD.length : 0
    return offset ? `${file}:1:${Number(column) - offset}` : match
  })
  const at = /\(?(\/[^\s():]+):(\d+):(\d+)\)?/.exec(text)
  let header = ''
  if (at) {
    try {
      const line = decoder.decode(fs.read(at[1]!)).split('\n')[Number(at[2]) - 1]
      if (line !== undefined) header = `${at[1]}:${at[2]}\n${line}\n${' '.repeat(Math.max(0, Number(at[3]) - 1))}^\n\n`
    } catch {
      // Not a project file (the prelude, an eval): the stack alone says where.
    }
  }
  return `${header}${text}\n\nNode.js ${NODE_VERSION}\n`
}
