import type { CommandContext, ExecResult } from 'just-bash'
import type { ProgramFiles } from '../runtime/program'
import { resolvePath } from '../path'
import {
  banner,
  binOf,
  findPackage,
  listScripts,
  missingScript,
  parseNpmArguments,
  scriptCommands,
  scriptEnvironment,
  scriptFailed,
  scriptsRunOffline,
  scriptsToRun,
  type PackageScripts,
} from './npm-scripts'
import { offlineCommands } from './offline-commands'

/** What `npm` says to a command only WebContainer's npm runs (an install, `npm exec`…). */
export function npmNeedsWebContainer(args: readonly string[]): string {
  const what = args.length ? `npm ${args.join(' ')}` : 'npm'
  return `npm: \`${what}\` needs WebContainer (Node.js and npm); offline, npm runs a package.json script (npm test, npm start, npm run <name>) whose commands the offline workspace has\n`
}

/**
 * The offline shell's `npm`: runs a package.json script (with its `pre`/`post` scripts) in this same shell when every
 * command in it is one the offline workspace has. `write` streams each script's output as it ends, when the command
 * is the whole statement; otherwise the output is the command's own, as any command's.
 */
export function npmCommand(files: ProgramFiles) {
  return async (args: string[], context: CommandContext, write?: (chunk: string) => void): Promise<ExecResult> => {
    let stdout = ''
    let stderr = ''
    const out = (chunk: string) => (write ? write(chunk) : (stdout += chunk))
    const err = (chunk: string) => (write ? write(chunk) : (stderr += chunk))
    const done = (exitCode: number): ExecResult => ({ stdout, stderr, exitCode })

    const invocation = parseNpmArguments(args)
    if (invocation.type === 'other') {
      err(npmNeedsWebContainer(args))
      return done(127)
    }
    const lookup = await findPackage(files, context.cwd)
    if (lookup.type === 'missing') {
      const path = resolvePath(context.cwd, 'package.json')
      err(`npm error code ENOENT\nnpm error syscall open\nnpm error path ${path}\nnpm error enoent Could not read package.json: no such file or directory, open '${path}'\n`)
      return done(254)
    }
    if (lookup.type === 'invalid') {
      err(`npm error code EJSONPARSE\nnpm error path ${lookup.path}\nnpm error JSON.parse Invalid package.json: ${lookup.message}\n`)
      return done(1)
    }
    const pkg = await withDefaultStart(lookup.package, files)
    if (invocation.type === 'list') {
      out(listScripts(pkg))
      return done(0)
    }
    const steps = scriptsToRun(pkg, invocation.event, invocation.args)
    if (steps.length === 0) {
      if (invocation.ifPresent) return done(0)
      err(missingScript(invocation.event))
      return done(1)
    }
    const commands = await offlineCommands()
    const verdict = await scriptsRunOffline(pkg, invocation, { commands, files })
    if (!verdict.offline) {
      err(`npm: the "${invocation.event}" script needs \`${verdict.needs}\`, which the offline workspace does not have; it runs in WebContainer\n`)
      return done(127)
    }
    const env = Object.fromEntries(context.env)
    for (const step of steps) {
      if (!invocation.silent) out(banner(pkg, step.event, step.script))
      const prelude = await binFunctions(pkg, step.script, commands, files)
      const result = await context.exec!(prelude + step.script, {
        cwd: pkg.directory,
        env: scriptEnvironment(pkg, step.event, step.script, env, context.cwd),
        ...(context.signal ? { signal: context.signal } : {}),
      })
      out(result.stdout)
      err(result.stderr)
      if (result.exitCode !== 0) {
        if (!invocation.silent) err(scriptFailed(pkg, step.script, result.exitCode))
        return done(result.exitCode)
      }
    }
    return done(0)
  }
}

/** npm's default `start`: `node server.js` when the package has a server.js and no start script. */
async function withDefaultStart(pkg: PackageScripts, files: ProgramFiles): Promise<PackageScripts> {
  if (pkg.scripts.start !== undefined || (await files.stat(resolvePath(pkg.directory, 'server.js')))?.type !== 'file') return pkg
  return { ...pkg, scripts: { ...pkg.scripts, start: 'node server.js' } }
}

/**
 * Shell functions for the `node_modules/.bin` commands a script names: a bin is usually a JavaScript file with a
 * `#!/usr/bin/env node` line, which the shell would read as a shell script, so it is run with `node` explicitly.
 */
async function binFunctions(pkg: PackageScripts, script: string, commands: ReadonlySet<string>, files: ProgramFiles): Promise<string> {
  const parsed = await scriptCommands(script)
  if (!parsed) return ''
  const lines: string[] = []
  const seen = new Set<string>()
  for (const command of parsed.commands) {
    const name = command.name
    if (name === undefined || seen.has(name) || commands.has(name) || parsed.functions.has(name) || name === 'npm' || !/^[\w.-]+$/.test(name)) continue
    seen.add(name)
    const path = await binOf(pkg, name, files)
    if (!path) continue
    const first = (await files.readText(path)).split('\n', 1)[0] ?? ''
    const runner = /^#!.*\bnode\b/.test(first) || /\.[cm]?js$/.test(path) ? 'node' : 'bash'
    lines.push(`${name}() { ${runner} '${path.replace(/'/g, `'\\''`)}' "$@"; }`)
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}

/**
 * Whether every `npm` of a command line is one the offline shell runs to the end: a script whose commands it has (or
 * npm's own error: no package.json, no such script). A `cd` to a plain path before it moves where package.json is
 * looked for; any other npm command, or an npm whose words are only known when run, is WebContainer's.
 */
export async function npmLineRunsOffline(line: string, cwd: string, files: ProgramFiles): Promise<boolean> {
  const parsed = await scriptCommands(line)
  if (!parsed) return false
  let directory = cwd
  const commands = await offlineCommands()
  for (const command of parsed.commands) {
    if (command.name === 'cd') {
      const target = command.args[0]
      if (target === undefined) return false
      directory = resolvePath(directory, target)
      continue
    }
    if (command.name !== 'npm') continue
    if (command.args.some((arg) => arg === undefined)) return false
    const invocation = parseNpmArguments(command.args as string[])
    if (invocation.type === 'other') return false
    const lookup = await findPackage(files, directory)
    if (lookup.type !== 'found') continue
    if (!(await scriptsRunOffline(lookup.package, invocation, { commands, files })).offline) return false
  }
  return true
}
