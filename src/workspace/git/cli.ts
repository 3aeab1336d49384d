import * as git from 'isomorphic-git'
import { resolvePath } from '../path'
import { ABORTED_EXIT_CODE, type ProgramRequest, type ProgramResult } from '../runtime/program'
import { parseArgs, UsageError } from './args'
import { branch, checkout, switchBranch } from './branches'
import { createGitFs, FsError, GitAborted } from './fs'
import { diff, log, revParse, show } from './history'
import { clone, fetchRemotes, pull, push, remote } from './remote'
import { fatal, GitExit, Repo, type GitContext } from './repo'
import { add, commit, init, mv, restore, rm, status } from './worktree'

type Subcommand = (context: GitContext, args: string[]) => Promise<number>

const SUBCOMMANDS: Record<string, Subcommand> = {
  init, status, add, commit, log, diff, show, branch, checkout, switch: switchBranch, restore, rm, mv,
  config, 'rev-parse': revParse, remote, clone, fetch: fetchRemotes, pull, push, version: async (context) => printVersion(context), help: async (context) => help(context),
}

/** git's own commands this one does not have: saying so keeps the model from guessing at them. */
const UNSUPPORTED = new Set([
  'merge', 'rebase', 'cherry-pick', 'revert', 'reset', 'stash', 'tag',
  'blame', 'bisect', 'clean', 'submodule', 'worktree', 'am', 'apply', 'format-patch', 'grep', 'reflog', 'gc',
  'describe', 'shortlog', 'notes', 'archive', 'ls-files', 'cat-file', 'hash-object',
])

export const GIT_VERSION = `git version 2.0.0 (isomorphic-git ${git.version()}, tabcode's offline git)`

function printVersion(context: GitContext): number {
  context.out(`${GIT_VERSION}\n`)
  return 0
}

function help(context: GitContext): number {
  context.out(
    'usage: git [-C <path>] <command> [<args>]\n\n' +
      "tabcode's offline git (isomorphic-git) has these commands:\n" +
      '   init, status, add, commit, log, diff, show, branch, checkout, switch, restore, rm, mv, config, rev-parse,\n' +
      '   remote, clone, fetch, pull, push (HTTP(S) remotes that allow CORS, or through the CORS proxy set in Settings)\n',
  )
  return 1
}

/** `git config [--get|--unset|--list] <key> [<value>]`, on the repository's own config. */
async function config(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: {
      '--get': 'get', '--unset': 'unset', '-l': 'list', '--list': 'list', '--global': 'global', '--local': 'local',
      '--system': 'global', '--add': 'add', '--replace-all': 'replace',
    },
  })
  const repo = await Repo.find(context)
  if (!repo) {
    // There is no home directory for a global config: the repository's config is the only one.
    const hint = options.has('global') ? ' (there is no global config here: run it inside a repository)' : ''
    throw fatal(`not in a git directory${hint}`)
  }
  if (options.has('list')) {
    const text = await context.request.files.readText(`${repo.gitdir}/config`).catch(() => '')
    context.out(flattenConfig(text))
    return 0
  }
  const [key, value] = operands
  if (!key || !/^[A-Za-z][\w-]*(\..+)?\.[A-Za-z][\w-]*$/.test(key)) {
    throw new GitExit(key ? `error: invalid key: ${key}\n` : 'error: wrong number of arguments, should be 1 or 2\n', key ? 1 : 129)
  }
  if (options.has('unset')) {
    await git.setConfig({ ...repo.base, path: key, value: undefined })
    return 0
  }
  if (value === undefined || options.has('get')) {
    const found = await repo.config(key)
    if (found === undefined) return 1
    context.out(`${found}\n`)
    return 0
  }
  await git.setConfig({ ...repo.base, path: key, value, append: options.has('add') })
  return 0
}

/** `.git/config` as `git config --list` prints it: `section.subsection.key=value`. */
function flattenConfig(text: string): string {
  let section = ''
  let out = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const header = /^\[([^\s\]"]+)(?:\s+"([^"]*)")?\]$/.exec(line)
    if (header) section = header[2] === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()}.${header[2]}`
    else if (line && !line.startsWith('#') && !line.startsWith(';')) {
      const [name, ...rest] = line.split('=')
      out += `${section}.${name!.trim().toLowerCase()}=${rest.join('=').trim()}\n`
    }
  }
  return out
}

/**
 * The `git` command: global options (`-C <path>`, `--no-pager`, `-c` is accepted and ignored), then one
 * subcommand. Every failure becomes git's own wording and exit code; nothing throws out of here.
 */
export async function runGitCommand(request: ProgramRequest, options: { now?: () => number } = {}): Promise<ProgramResult> {
  let cwd = request.cwd
  const args = request.argv.slice(1)
  while (args[0]?.startsWith('-')) {
    const option = args.shift()!
    if (option === '-C' && args[0] !== undefined) cwd = resolvePath(cwd, args.shift()!)
    else if (option === '-c' && args[0] !== undefined) args.shift()
    else if (option === '--no-pager' || option === '-P' || option === '--no-optional-locks') continue
    else if (option === '--version' || option === '-v') args.unshift('version')
    else if (option === '--help' || option === '-h') args.unshift('help')
    else {
      request.onStderr(`unknown option: ${option}\nusage: git [-C <path>] <command> [<args>]\n`)
      return { exitCode: 129 }
    }
    if (args[0] === 'version' || args[0] === 'help') break
  }
  const context: GitContext = {
    request: { ...request, cwd },
    fs: createGitFs(request.files, request.signal),
    now: options.now ?? Date.now,
    out: request.onStdout,
    err: request.onStderr,
  }
  const name = args.shift()
  if (name === undefined) return { exitCode: help(context) }
  const subcommand = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined
  if (!subcommand) {
    if (UNSUPPORTED.has(name)) {
      context.err(`git: '${name}' is not supported by the offline git (isomorphic-git); see 'git help' for what is.\n`)
    } else context.err(`git: '${name}' is not a git command. See 'git --help'.\n`)
    return { exitCode: 1 }
  }
  if ((await request.files.stat(cwd))?.type !== 'directory') {
    context.err(`fatal: cannot change to '${cwd}': No such file or directory\n`)
    return { exitCode: 128 }
  }
  try {
    return { exitCode: await subcommand(context, args) }
  } catch (error) {
    if (error instanceof GitAborted || request.signal.aborted) return { exitCode: ABORTED_EXIT_CODE }
    if (error instanceof GitExit) {
      context.err(error.text)
      return { exitCode: error.exitCode }
    }
    if (error instanceof UsageError) {
      context.err(`${error.message}\nusage: git ${name} [<options>]\n`)
      return { exitCode: 129 }
    }
    const message = error instanceof FsError || error instanceof Error ? error.message : String(error)
    context.err(`fatal: ${message}\n`)
    return { exitCode: 128 }
  }
}
