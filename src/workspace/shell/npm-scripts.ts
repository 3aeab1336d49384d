import type { ScriptNode } from 'just-bash'
import type { ProgramFiles } from '../runtime/program'
import { dirname, resolvePath } from '../path'
import { loadShellSyntax } from './syntax'

/**
 * `npm test`, `npm start` and `npm run <script>` as npm 10 runs them: the script of the nearest package.json, with its
 * `pre` and `post` scripts, in `sh` with `node_modules/.bin` on PATH. A script that needs nothing but what the offline
 * workspace has runs offline; any other (a package's command, `npx`, an install) still goes to WebContainer.
 */

/** What an npm command line asks for. `other` is anything else npm does (install, exec, ci…): WebContainer's. */
export type NpmInvocation =
  | { type: 'run'; event: string; args: string[]; ifPresent: boolean; silent: boolean }
  | { type: 'list'; silent: boolean }
  | { type: 'other' }

/** The subcommands that run a script, with npm's aliases; `run` takes the script's name next. */
const LIFECYCLE: Record<string, string> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop' }
const RUN = new Set(['run', 'run-script', 'rum', 'urn'])
/** npm options that change nothing a script sees. Any other option is npm configuration we do not model. */
const SILENT = new Set(['-s', '--silent', '--loglevel=silent'])
const IF_PRESENT = '--if-present'

/** Reads `npm …`'s arguments (without `npm`) the way npm 10 does for the commands that run scripts. */
export function parseNpmArguments(words: readonly string[]): NpmInvocation {
  let silent = false
  let ifPresent = false
  const option = (word: string) => {
    if (SILENT.has(word)) silent = true
    else if (word === IF_PRESENT) ifPresent = true
    else return false
    return true
  }
  let index = 0
  while (index < words.length && words[index]!.startsWith('-')) if (!option(words[index++]!)) return { type: 'other' }
  const command = words[index++]
  let event: string | undefined
  if (command !== undefined && command in LIFECYCLE) event = LIFECYCLE[command]
  else if (command === undefined || !RUN.has(command)) return { type: 'other' }
  const args: string[] = []
  for (; index < words.length; index++) {
    const word = words[index]!
    if (word === '--') {
      args.push(...words.slice(index + 1))
      break
    }
    if (word.startsWith('-')) {
      if (!option(word)) return { type: 'other' }
    } else if (event === undefined) event = word
    else args.push(word)
  }
  if (event === undefined) return { type: 'list', silent }
  return { type: 'run', event, args, ifPresent, silent }
}

export interface PackageScripts {
  /** The directory holding package.json: scripts run there, whatever the cwd. */
  directory: string
  /** `name@version` as npm prints it in its banner, when package.json has them. */
  id: string | undefined
  name: string | undefined
  version: string | undefined
  scripts: Record<string, string>
}

export type PackageLookup = { type: 'found'; package: PackageScripts } | { type: 'missing' } | { type: 'invalid'; path: string; message: string }

/** The nearest package.json from `cwd` up to the workspace's root, as npm looks for its project. */
export async function findPackage(files: ProgramFiles, cwd: string): Promise<PackageLookup> {
  let directory = cwd
  for (;;) {
    const path = resolvePath(directory, 'package.json')
    if ((await files.stat(path))?.type === 'file') return readPackage(files, directory, path)
    if (directory === files.root || directory === '/' || !directory.startsWith(files.root)) return { type: 'missing' }
    directory = dirname(directory)
  }
}

async function readPackage(files: ProgramFiles, directory: string, path: string): Promise<PackageLookup> {
  let manifest: unknown
  try {
    manifest = JSON.parse(await files.readText(path))
  } catch (error) {
    return { type: 'invalid', path, message: error instanceof Error ? error.message : String(error) }
  }
  const record = manifest && typeof manifest === 'object' ? (manifest as Record<string, unknown>) : {}
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  const scripts: Record<string, string> = {}
  if (record.scripts && typeof record.scripts === 'object') {
    for (const [name, script] of Object.entries(record.scripts)) if (typeof script === 'string') scripts[name] = script
  }
  const name = text(record.name)
  const version = text(record.version)
  return { type: 'found', package: { directory, id: name ? (version ? `${name}@${version}` : name) : undefined, name, version, scripts } }
}

/** The scripts one run executes, in order: `pre<event>`, `<event>` (with the arguments), `post<event>`. */
export function scriptsToRun(pkg: PackageScripts, event: string, args: readonly string[]): { event: string; script: string }[] {
  const main = pkg.scripts[event]
  if (main === undefined) return []
  const steps = [{ event, script: args.length ? `${main} ${args.map(quoteArgument).join(' ')}` : main }]
  const before = pkg.scripts[`pre${event}`]
  const after = pkg.scripts[`post${event}`]
  return [...(before === undefined ? [] : [{ event: `pre${event}`, script: before }]), ...steps, ...(after === undefined ? [] : [{ event: `post${event}`, script: after }])]
}

/** An argument as npm passes it on to `sh -c`: left bare when the shell would read it unchanged, else single-quoted. */
export function quoteArgument(argument: string): string {
  if (/^[\w@%+=:,./-]+$/.test(argument)) return argument
  return `'${argument.replace(/'/g, `'\\''`)}'`
}

/** What npm prints before each script: a blank line, the package and event, the command, a blank line. */
export function banner(pkg: PackageScripts, event: string, script: string): string {
  return `\n> ${pkg.id ? `${pkg.id} ` : ''}${event}\n> ${script}\n\n`
}

/** npm's answer to a script that is not there. */
export function missingScript(event: string): string {
  return `npm error Missing script: "${event}"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n`
}

/** npm's answer when a script exits with a failure. */
export function scriptFailed(pkg: PackageScripts, script: string, exitCode: number): string {
  return `npm error code ${exitCode}\nnpm error path ${pkg.directory}\nnpm error command failed\nnpm error command sh -c ${script}\n`
}

/** The lifecycle scripts npm lists apart from the rest in `npm run`. */
const LISTED_LIFECYCLE = new Set(['test', 'start', 'stop', 'restart'])

/** `npm run` with no name: the package's scripts, lifecycle ones first, as npm 10 lists them. */
export function listScripts(pkg: PackageScripts): string {
  const entries = Object.entries(pkg.scripts)
  if (entries.length === 0) return ''
  const lifecycle = entries.filter(([name]) => LISTED_LIFECYCLE.has(name))
  const others = entries.filter(([name]) => !LISTED_LIFECYCLE.has(name))
  const block = (list: [string, string][]) => list.map(([name, script]) => `  ${name}\n    ${script}\n`).join('')
  let text = ''
  if (lifecycle.length) text += `Lifecycle scripts included in ${pkg.id ?? pkg.directory}:\n${block(lifecycle)}`
  if (others.length) text += `${lifecycle.length ? '\n' : ''}available via \`npm run-script\`:\n${block(others)}`
  return text
}

/** The environment npm gives a script: its lifecycle event, the script, the package, and its bins first on PATH. */
export function scriptEnvironment(pkg: PackageScripts, event: string, script: string, env: Record<string, string>, cwd: string): Record<string, string> {
  const bins: string[] = []
  for (let directory = pkg.directory; ; directory = dirname(directory)) {
    bins.push(resolvePath(directory, 'node_modules/.bin'))
    if (directory === '/' || dirname(directory) === directory) break
  }
  return {
    npm_lifecycle_event: event,
    npm_lifecycle_script: script,
    npm_command: event === 'test' || event === 'start' || event === 'stop' ? event : 'run-script',
    ...(pkg.name ? { npm_package_name: pkg.name } : {}),
    ...(pkg.version ? { npm_package_version: pkg.version } : {}),
    npm_package_json: resolvePath(pkg.directory, 'package.json'),
    INIT_CWD: env.INIT_CWD ?? cwd,
    PATH: [...bins, env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(':'),
  }
}

/** A command of a script: its name when it is written plainly (no expansion), with the words after it. */
export interface ScriptCommand {
  name: string | undefined
  args: (string | undefined)[]
}

/** Commands that run the command named in their arguments; which argument that is, after their own options. */
const WRAPPERS: Record<string, { skip: number }> = {
  env: { skip: 0 },
  time: { skip: 0 },
  nohup: { skip: 0 },
  command: { skip: 0 },
  builtin: { skip: 0 },
  xargs: { skip: 0 },
  timeout: { skip: 1 },
  nice: { skip: 0 },
}

/** Every command a script runs (nested ones too: subshells, `$(…)`, functions), read with the shell's own parser. */
export async function scriptCommands(script: string): Promise<{ commands: ScriptCommand[]; functions: Set<string> } | undefined> {
  const syntax = await loadShellSyntax()
  let ast: ScriptNode
  try {
    ast = syntax.parse(script)
  } catch {
    return undefined
  }
  const commands: ScriptCommand[] = []
  const functions = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const record = node as { type?: string; name?: unknown; args?: unknown[] }
    if (record.type === 'FunctionDef' && typeof record.name === 'string') functions.add(record.name)
    if (record.type === 'SimpleCommand' && record.name) {
      const words = [record.name, ...(record.args ?? [])].map(plainWord)
      commands.push({ name: words[0], args: words.slice(1) })
    }
    for (const value of Object.values(node)) visit(value)
  }
  visit(ast)
  return { commands, functions }
}

/** A word's text when it has no expansion in it (quotes removed), else undefined: it is only known when run. */
function plainWord(word: unknown): string | undefined {
  const parts = (word as { parts?: { type: string; value?: unknown; parts?: unknown[] }[] }).parts
  if (!Array.isArray(parts)) return undefined
  let text = ''
  for (const part of parts) {
    if ((part.type === 'Literal' || part.type === 'SingleQuoted' || part.type === 'Escaped') && typeof part.value === 'string') text += part.value
    else if (part.type === 'DoubleQuoted') {
      const inner = plainWord(part)
      if (inner === undefined) return undefined
      text += inner
    } else return undefined
  }
  return text
}

/** The command a wrapper (`env X=1 node a.js`, `timeout 5 python t.py`) runs, if its arguments name one plainly. */
function wrapped(command: ScriptCommand): ScriptCommand | 'none' | undefined {
  let skip = WRAPPERS[command.name!]!.skip
  for (let index = 0; index < command.args.length; index++) {
    const arg = command.args[index]
    if (arg === undefined) return undefined
    if (arg.startsWith('-') || (command.name === 'env' && arg.includes('='))) continue
    if (skip-- > 0) continue
    return { name: arg, args: command.args.slice(index + 1) }
  }
  return 'none'
}

export interface OfflineCheck {
  /** The commands the offline shell has (its own, python, node, git…), `npm` excepted. */
  commands: ReadonlySet<string>
  files: ProgramFiles
}

/** Why a script can't run offline: the first command it needs that the offline workspace lacks. */
export type OfflineVerdict = { offline: true } | { offline: false; needs: string }

/**
 * Whether every command of a run's scripts is one the offline workspace has: the shell's commands and builtins,
 * python, node, git, the script's own functions, `node_modules/.bin` entries that are there, and `npm run` of another
 * script that passes the same test. Anything not known for sure (an expansion as a command, a path) is not offline.
 */
export async function scriptsRunOffline(pkg: PackageScripts, invocation: NpmInvocation, check: OfflineCheck, depth = 0): Promise<OfflineVerdict> {
  if (invocation.type === 'other') return { offline: false, needs: 'npm' }
  if (invocation.type === 'list') return { offline: true }
  if (depth > 8) return { offline: false, needs: 'npm' }
  for (const step of scriptsToRun(pkg, invocation.event, invocation.args)) {
    const parsed = await scriptCommands(step.script)
    if (!parsed) return { offline: false, needs: step.script }
    for (const command of parsed.commands) {
      const verdict = await commandRunsOffline(command, parsed.functions, pkg, check, depth)
      if (!verdict.offline) return verdict
    }
  }
  return { offline: true }
}

async function commandRunsOffline(command: ScriptCommand, functions: Set<string>, pkg: PackageScripts, check: OfflineCheck, depth: number): Promise<OfflineVerdict> {
  const name = command.name
  if (name === undefined) return { offline: false, needs: 'a command named by an expansion' }
  if (functions.has(name)) return { offline: true }
  if (name === 'npm') {
    const args = command.args
    if (args.some((arg) => arg === undefined)) return { offline: false, needs: 'npm' }
    return scriptsRunOffline(pkg, parseNpmArguments(args as string[]), check, depth + 1)
  }
  if (name in WRAPPERS && check.commands.has(name)) {
    const inner = wrapped(command)
    if (inner === undefined) return { offline: false, needs: name }
    if (inner !== 'none') return commandRunsOffline(inner, functions, pkg, check, depth)
    return { offline: true }
  }
  if (!name.includes('/') && check.commands.has(name)) return { offline: true }
  if (!name.includes('/') && (await binOf(pkg, name, check.files))) return { offline: true }
  return { offline: false, needs: name }
}

/** `node_modules/.bin/<name>` of the package (or a parent), when it is there. */
export async function binOf(pkg: PackageScripts, name: string, files: ProgramFiles): Promise<string | undefined> {
  for (let directory = pkg.directory; directory.startsWith(files.root); directory = dirname(directory)) {
    const path = resolvePath(directory, `node_modules/.bin/${name}`)
    if ((await files.stat(path))?.type === 'file') return path
    if (directory === files.root) break
  }
  return undefined
}
