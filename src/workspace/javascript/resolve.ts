import { dirname, normalizePath, resolvePath } from '../path'
import type { MemoryFs } from './memory-fs'

/** The built-in modules the offline `node` provides (the prelude defines them), with or without `node:`. */
export const BUILTIN_MODULES = new Set([
  'fs', 'fs/promises', 'path', 'path/posix', 'process', 'util', 'events', 'os', 'assert', 'assert/strict', 'buffer', 'timers', 'url', 'readline', 'readline/promises', 'crypto',
  'perf_hooks', 'timers/promises', 'test',
])

/** Built-ins Node knows only by their `node:` name: `require('test')` is an npm package. */
const PREFIXED_ONLY = new Set(['test'])

/** Node's own modules that need a real process, a network or a native binding. */
const NODE_ONLY = new Set([
  'child_process', 'cluster', 'dgram', 'diagnostics_channel', 'dns', 'domain', 'http', 'http2', 'https',
  'inspector', 'module', 'net', 'punycode', 'querystring', 'repl',
  'stream', 'stream/promises', 'string_decoder', 'sys', 'tls', 'trace_events', 'tty',
  'v8', 'vm', 'wasi', 'worker_threads', 'zlib', 'sqlite', 'sea',
])

export const WEBCONTAINER_HINT = 'npm packages (node_modules) and native addons need WebContainer'

export type Resolution =
  | { kind: 'builtin'; name: string }
  | { kind: 'file'; path: string }
  | { kind: 'error'; code: string; message: string }

const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.json']

export interface ResolveOptions {
  /** `--conditions` given to node, matched in a package's `exports` besides node, import/require and default. */
  conditions: string[]
  mode: 'import' | 'require'
}

/** Node's resolution of `request` from a file in `directory`, over the project's files only. */
export function resolveModule(
  fs: MemoryFs,
  directory: string,
  request: string,
  from = '',
  options: ResolveOptions = { conditions: [], mode: 'require' },
): Resolution {
  const bare = request.startsWith('node:') ? request.slice(5) : request
  if (BUILTIN_MODULES.has(bare) && !(bare === request && PREFIXED_ONLY.has(bare))) return { kind: 'builtin', name: bare }
  const by = from ? ` (imported from ${from})` : ''
  if (NODE_ONLY.has(bare)) {
    return {
      kind: 'error',
      code: 'ERR_UNAVAILABLE',
      message: `The module '${bare}' is not available in the offline node${by}: it has no processes, network or native bindings. Run it where WebContainer is available.`,
    }
  }
  const relative = request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../') || request.startsWith('/')
  if (!relative) {
    const own = selfReference(fs, directory, request, options)
    if (own) return own
    return {
      kind: 'error',
      code: 'MODULE_NOT_FOUND',
      message: `Cannot find module '${request}'${by}. The offline node runs only the project's own files and the built-in modules ${[...BUILTIN_MODULES].filter((m) => !m.includes('/')).join(', ')}; ${WEBCONTAINER_HINT} (npm install does not work offline).`,
    }
  }
  const target = resolvePath(directory, request)
  if (target.endsWith('.node')) {
    return { kind: 'error', code: 'ERR_DLOPEN_FAILED', message: `Cannot load the native addon '${target}'${by}: ${WEBCONTAINER_HINT}.` }
  }
  const found = asFile(fs, target) ?? asDirectory(fs, target)
  if (found) return { kind: 'file', path: found }
  return { kind: 'error', code: 'MODULE_NOT_FOUND', message: `Cannot find module '${target}'${by}` }
}

function isFile(fs: MemoryFs, path: string): boolean {
  return fs.exists(path) && fs.stat(path).type === 'file'
}

function asFile(fs: MemoryFs, path: string): string | undefined {
  if (isFile(fs, path)) return path
  for (const extension of EXTENSIONS) if (isFile(fs, path + extension)) return path + extension
  // TypeScript sources import each other by their emitted name: `./util.js` means `./util.ts`.
  const emitted = /\.(m|c)?js$/.exec(path)
  if (emitted) {
    const typed = `${path.slice(0, -emitted[0].length)}.${emitted[1] ?? ''}ts`
    if (isFile(fs, typed)) return typed
    if (!emitted[1] && isFile(fs, `${path.slice(0, -3)}.tsx`)) return `${path.slice(0, -3)}.tsx`
  }
  return undefined
}

function asDirectory(fs: MemoryFs, path: string): string | undefined {
  if (!fs.exists(path) || fs.stat(path).type !== 'directory') return undefined
  const manifest = readPackage(fs, `${path}/package.json`)
  if (typeof manifest?.main === 'string') {
    const main = resolvePath(path, manifest.main)
    const found = asFile(fs, main) ?? asFile(fs, `${main}/index`)
    if (found) return found
  }
  return asFile(fs, `${path}/index`)
}

function readPackage(fs: MemoryFs, path: string): Record<string, unknown> | undefined {
  if (!isFile(fs, path)) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(fs.read(path)))
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * A package importing itself by its own name (`import x from 'my-package/sub'` inside my-package): resolved
 * through its package.json `exports`, as Node does, with the conditions node, import or require, the
 * `--conditions` given, and default.
 */
function selfReference(fs: MemoryFs, directory: string, request: string, options: ResolveOptions): Resolution | undefined {
  const scoped = request.startsWith('@')
  const parts = request.split('/')
  const name = parts.slice(0, scoped ? 2 : 1).join('/')
  const subpath = ['.', ...parts.slice(scoped ? 2 : 1)].join('/')
  for (let at = directory; ; at = dirname(at)) {
    const manifest = readPackage(fs, normalizePath(`${at}/package.json`))
    if (manifest) {
      if (manifest.name !== name || manifest.exports === undefined) return undefined
      const conditions = new Set([...options.conditions, 'node', options.mode, 'default'])
      const target = exportTarget(manifest.exports, subpath, conditions)
      if (target === undefined) {
        return {
          kind: 'error',
          code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
          message: subpath === '.'
            ? `No "exports" main defined in ${at}/package.json`
            : `Package subpath '${subpath}' is not defined by "exports" in ${at}/package.json`,
        }
      }
      const path = resolvePath(at, target)
      if (isFile(fs, path)) return { kind: 'file', path }
      return { kind: 'error', code: 'MODULE_NOT_FOUND', message: `Cannot find module '${path}'` }
    }
    if (at === '/') return undefined
  }
}

/** The file `exports` maps `subpath` to under these conditions: an exact key, else the longest `*` pattern. */
function exportTarget(exports: unknown, subpath: string, conditions: Set<string>): string | undefined {
  const map = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'))
    ? (exports as Record<string, unknown>)
    : { '.': exports }
  if (subpath in map) return pick(map[subpath], conditions, '')
  let best: { key: string; star: string } | undefined
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*')
    if (star < 0) continue
    const head = key.slice(0, star)
    const tail = key.slice(star + 1)
    if (subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length >= key.length - 1 && (!best || head.length > best.key.indexOf('*'))) {
      best = { key, star: subpath.slice(head.length, subpath.length - tail.length) }
    }
  }
  return best ? pick(map[best.key], conditions, best.star) : undefined
}

function pick(target: unknown, conditions: Set<string>, star: string): string | undefined {
  if (typeof target === 'string') return target.replace(/\*/g, star)
  if (Array.isArray(target)) {
    for (const item of target) {
      const found = pick(item, conditions, star)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof target === 'object' && target !== null) {
    // Keys in their written order: the first condition that applies wins.
    for (const [condition, value] of Object.entries(target)) {
      if (!conditions.has(condition)) continue
      const found = pick(value, conditions, star)
      if (found !== undefined) return found
    }
  }
  return undefined
}

export type ModuleFormat = 'cjs' | 'esm' | 'json'

const MODULE_SYNTAX = /^\s*(import\s*[\w{*'"$]|export\s*(\{|\*|default\b|const\b|let\b|var\b|function\b|class\b|async\b|type\b|interface\b|enum\b))/m

/** True when source has `import`/`export` statements (Node ≥ 22 detects module syntax the same way). */
export function hasModuleSyntax(source: string): boolean {
  return MODULE_SYNTAX.test(source)
}

/** `.mjs`/`.mts` are modules, `.cjs`/`.cts` CommonJS; otherwise the nearest package.json's `type`, else the syntax. */
export function formatOf(fs: MemoryFs, path: string, source: string): ModuleFormat {
  if (path.endsWith('.json')) return 'json'
  if (/\.m[jt]s$/.test(path)) return 'esm'
  if (/\.c[jt]s$/.test(path)) return 'cjs'
  for (let directory = dirname(path); ; directory = dirname(directory)) {
    const manifest = readPackage(fs, normalizePath(`${directory}/package.json`))
    if (manifest?.type === 'module') return 'esm'
    if (manifest?.type === 'commonjs') return 'cjs'
    if (directory === '/') break
  }
  return hasModuleSyntax(source) ? 'esm' : 'cjs'
}

export const isTypeScript = (path: string): boolean => /\.(m|c)?tsx?$/.test(path)
