import { resolvePath } from '../path'
import type { EngineEntry } from './engine'

export type NodeCommand =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'error'; message: string; exitCode: number }
  | { kind: 'run'; entry: EngineEntry; args: string[] }

/** Options that change nothing here (the engine has no inspector, warnings or flags), accepted so scripts still run. */
const IGNORED = /^--(no-warnings|no-deprecation|enable-source-maps|experimental-[\w-]+|no-experimental-[\w-]+|trace-[\w-]+|stack-trace-limit=.*|max-old-space-size=.*|inspect[\w-]*(=.*)?|harmony[\w-]*|preserve-symlinks[\w-]*|title=.*|unhandled-rejections=.*|env-file=.*|loader=.*|import=.*|require=.*)$/

export const NODE_USAGE = `Usage: node [options] [ script.js | script.ts ] [arguments]
       node -e "script" | -p "expression"
       node - (or no script: read the script from stdin)

This node is QuickJS in a sandbox: the project's files, console, process and the built-in modules fs, path,
process, util, events, os, assert, buffer, timers, timers/promises, url, readline, perf_hooks, test
(node --test runs the project's test files) and crypto (random, sha256/sha1/md5). npm packages and native addons need WebContainer.
`

/** `node`'s own argv (after `argv[0]`) read the way Node reads it: options, then the script and its arguments. */
export function parseNodeCommand(argv: string[], cwd: string, stdin: string): NodeCommand {
  let module: boolean | undefined
  const conditions: string[] = []
  let testing = false
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!
    const value = (name: string): string | undefined => (arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : undefined)
    if (arg === '--version' || arg === '-v') return { kind: 'version' }
    if (arg === '--help' || arg === '-h') return { kind: 'help' }
    const evalFlag = arg === '-e' || arg === '--eval' ? 'eval' : arg === '-p' || arg === '--print' || arg === '-pe' ? 'print' : undefined
    const inline = value('--eval') ?? value('--print')
    if (evalFlag || inline !== undefined) {
      const code = inline ?? argv[++index]
      if (code === undefined) return { kind: 'error', message: `node: ${arg} requires an argument\n`, exitCode: 9 }
      const print = evalFlag === 'print' || arg.startsWith('--print')
      return { kind: 'run', entry: { kind: 'source', code, name: '[eval]', print, module }, args: afterDashes(argv.slice(index + 1)) }
    }
    const inputType = value('--input-type')
    if (inputType !== undefined) {
      module = inputType === 'module'
      continue
    }
    if (arg === '-r' || arg === '--require' || arg === '--import') {
      return { kind: 'error', message: `node: ${arg} preloads modules, which the offline node does not support\n`, exitCode: 9 }
    }
    if (arg === '--test') {
      testing = true
      continue
    }
    const condition = value('--conditions') ?? value('-C')
    if (condition !== undefined || arg === '--conditions' || arg === '-C') {
      const named = condition ?? argv[++index]
      if (named === undefined) return { kind: 'error', message: `node: ${arg} requires an argument\n`, exitCode: 9 }
      conditions.push(named)
      continue
    }
    if (IGNORED.test(arg)) continue
    if (testing) return { kind: 'run', entry: { kind: 'tests', paths: argv.slice(index).filter((path) => path !== '--'), conditions }, args: [] }
    if (arg === '--') {
      return scriptAt(argv.slice(index + 1), cwd, stdin, module, conditions)
    }
    if (arg.startsWith('-') && arg !== '-') return { kind: 'error', message: `node: bad option: ${arg}\n`, exitCode: 9 }
    return scriptAt(argv.slice(index), cwd, stdin, module, conditions)
  }
  if (testing) return { kind: 'run', entry: { kind: 'tests', paths: [], conditions }, args: [] }
  return { kind: 'run', entry: { kind: 'source', code: stdin, name: '[stdin]', print: false, module }, args: [] }
}

function scriptAt(rest: string[], cwd: string, stdin: string, module: boolean | undefined, conditions: string[]): NodeCommand {
  const [script, ...args] = rest
  if (script === undefined || script === '-') {
    return { kind: 'run', entry: { kind: 'source', code: stdin, name: '[stdin]', print: false, module }, args }
  }
  return { kind: 'run', entry: { kind: 'file', path: resolvePath(cwd, script), ...(conditions.length ? { conditions } : {}) }, args }
}

const afterDashes = (args: string[]) => (args[0] === '--' ? args.slice(1) : args)
