import * as git from 'isomorphic-git'
import { resolvePath } from '../path'
import { parseArgs } from './args'
import { compare, summary } from './diff'
import { fatal, GitExit, matchesPathspec, Repo, short, type GitContext } from './repo'
import { formatLongStatus, formatShortStatus, readStatus } from './status'
import { shortBranchLine } from './tracking'

// The working tree and the index: init, status, add, commit, rm, mv and restore (branches.ts moves HEAD).

/** `git init [-b <branch>] [<directory>]`. */
export async function init(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: { '-q': 'quiet', '--quiet': 'quiet' },
    values: { '-b': 'branch', '--initial-branch': 'branch' },
  })
  const dir = resolvePath(context.request.cwd, operands[0] ?? '.')
  const gitdir = `${dir === '/' ? '' : dir}/.git`
  const existing = await context.request.files.stat(gitdir)
  await git.init({ fs: context.fs, dir, defaultBranch: options.get('branch')?.at(-1) ?? 'main' })
  if (!options.has('quiet')) {
    context.out(`${existing ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${gitdir}/\n`)
  }
  return 0
}

/** `git status [-s | --short | --porcelain] [<pathspec>…]`. */
export async function status(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths } = parseArgs(args, {
    flags: { '-s': 'short', '--short': 'short', '--porcelain': 'porcelain', '-b': 'branch', '--branch': 'branch', '--long': 'long' },
    values: { '-u': 'untracked', '--untracked-files': 'untracked' },
  })
  const repo = await Repo.open(context)
  const state = await readStatus(repo, [...operands, ...paths].map((path) => repo.pathOf(path)))
  if (options.get('untracked')?.at(-1) === 'no') state.untracked = []
  if (options.has('short') || options.has('porcelain')) {
    if (options.has('branch')) context.out(await shortBranchLine(repo))
    context.out(formatShortStatus(repo, state, options.has('porcelain')))
  } else context.out(await formatLongStatus(repo, state))
  return 0
}

/** `git add <pathspec>… | . | -A | -u`: stages new and changed files and the removal of deleted ones. */
export async function add(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths } = parseArgs(args, {
    flags: { '-A': 'all', '--all': 'all', '-u': 'update', '--update': 'update', '-f': 'force', '--force': 'force', '-v': 'verbose', '--verbose': 'verbose' },
  })
  const repo = await Repo.open(context)
  const typed = [...operands, ...paths]
  if (typed.length === 0 && !options.has('all') && !options.has('update')) {
    context.err("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n")
    return 0
  }
  const specs = typed.length === 0 ? [''] : typed.map((path) => repo.pathOf(path))
  const matrix = await git.statusMatrix({ ...repo.base })
  const toAdd: string[] = []
  const ignored: string[] = []
  for (const [index, spec] of specs.entries()) {
    const rows = matrix.filter(([path]) => matchesPathspec(path, [spec]))
    if (rows.length > 0 || spec === '') continue
    const stat = await context.request.files.stat(repo.absolute(spec))
    if (stat?.type === 'file' && (await git.isIgnored({ ...repo.base, filepath: spec }))) {
      if (options.has('force')) toAdd.push(spec)
      else ignored.push(typed[index] ?? spec)
    } else if (!stat) throw fatal(`pathspec '${typed[index]}' did not match any files`)
  }
  if (ignored.length > 0) {
    throw new GitExit(
      `The following paths are ignored by one of your .gitignore files:\n${ignored.join('\n')}\nhint: Use -f if you really want to add them.\n`,
      1,
    )
  }
  for (const [path, head, work, stage] of matrix) {
    if (!matchesPathspec(path, specs)) continue
    if (options.has('update') && head === 0 && stage === 0) continue
    if (work === 0) {
      if (stage !== 0) {
        await git.remove({ ...repo.base, filepath: path })
        if (options.has('verbose')) context.out(`remove '${path}'\n`)
      }
    } else if (!(stage === 2 || (stage === 1 && work === 1))) toAdd.push(path)
  }
  if (toAdd.length > 0) await git.add({ ...repo.base, filepath: toAdd, force: options.has('force') })
  if (options.has('verbose')) for (const path of toAdd) context.out(`add '${path}'\n`)
  return 0
}

/** `git commit -m <msg> [-a] [--amend] [--allow-empty]`. */
export async function commit(context: GitContext, args: string[]): Promise<number> {
  const { options } = parseArgs(args, {
    flags: {
      '-a': 'all', '--all': 'all', '--amend': 'amend', '--allow-empty': 'allowEmpty', '-q': 'quiet', '--quiet': 'quiet',
      '--no-edit': 'noEdit', '--no-verify': 'noVerify', '-n': 'noVerify',
    },
    values: { '-m': 'message', '--message': 'message' },
  })
  const repo = await Repo.open(context)
  if (options.has('all')) {
    for (const [path, head, work, stage] of await git.statusMatrix({ ...repo.base })) {
      if (head === 0 && stage === 0) continue
      if (work === 0 && stage !== 0) await git.remove({ ...repo.base, filepath: path })
      else if (work !== 0 && !(stage === 2 || (stage === 1 && work === 1))) await git.add({ ...repo.base, filepath: path })
    }
  }
  const amend = options.has('amend')
  const message = options.get('message')?.join('\n\n')
  if (message === undefined && !amend) {
    throw new GitExit('Aborting commit: no message given. Pass one with -m "<message>" (no editor runs here).\n', 1)
  }
  if (message !== undefined && message.trim() === '') throw new GitExit('Aborting commit due to empty commit message.\n', 1)
  const head = await repo.head()
  if (amend && !head) throw fatal('You have nothing to amend.')
  const state = await readStatus(repo)
  if (!amend && !options.has('allowEmpty') && !state.entries.some((entry) => entry.index !== ' ')) {
    context.out(await formatLongStatus(repo, state))
    return 1
  }
  const parent = amend ? (await repo.readCommit(head!)).parent[0] : head
  const oid = await git.commit({
    ...repo.base,
    message: message === undefined ? undefined : `${message.replace(/\n+$/, '')}\n`,
    author: await repo.author('AUTHOR'),
    committer: await repo.author('COMMITTER'),
    amend,
  })
  if (options.has('quiet')) return 0
  const branch = await repo.headBranch()
  const subject = (await repo.readCommit(oid)).message.split('\n')[0]
  const changes = await compare(await repo.treeFiles(parent), await repo.treeFiles(oid))
  let text = `[${branch ?? 'detached HEAD'}${parent ? '' : ' (root-commit)'} ${short(oid)}] ${subject}\n`
  text += summary(changes)
  for (const change of changes) {
    if (!change.before) text += ` create mode ${change.after!.mode.toString(8)} ${change.path}\n`
    else if (!change.after) text += ` delete mode ${change.before.mode.toString(8)} ${change.path}\n`
  }
  context.out(text)
  return 0
}

/** `git rm [--cached] [-r] [-f] [-q] <pathspec>…`. */
export async function rm(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths } = parseArgs(args, {
    flags: { '--cached': 'cached', '-r': 'recursive', '-f': 'force', '--force': 'force', '-q': 'quiet', '--quiet': 'quiet' },
  })
  const repo = await Repo.open(context)
  const typed = [...operands, ...paths]
  if (typed.length === 0) throw new GitExit('usage: git rm [<options>] [--] <file>...\n', 129)
  const index = await repo.indexFiles()
  const targets: string[] = []
  for (const path of typed) {
    const spec = repo.pathOf(path)
    const matched = [...index.keys()].filter((file) => matchesPathspec(file, [spec]))
    if (matched.length === 0) throw fatal(`pathspec '${path}' did not match any files`)
    if (!matched.includes(spec) && !options.has('recursive')) throw fatal(`not removing '${path}' recursively without -r`)
    targets.push(...matched)
  }
  if (!options.has('cached') && !options.has('force')) {
    const state = await readStatus(repo)
    const modified = state.entries.filter((entry) => entry.work === 'M' && targets.includes(entry.path)).map((entry) => entry.path)
    if (modified.length > 0) {
      const which = modified.length === 1 ? 'file has' : 'files have'
      throw new GitExit(
        `error: the following ${which} local modifications:\n${modified.map((path) => `    ${path}\n`).join('')}(use --cached to keep the file, or -f to force removal)\n`,
        1,
      )
    }
  }
  for (const path of [...new Set(targets)]) {
    await git.remove({ ...repo.base, filepath: path })
    if (!options.has('cached')) await removeFile(repo, path)
    if (!options.has('quiet')) context.out(`rm '${path}'\n`)
  }
  return 0
}

/** Deletes a file and then the directories it leaves empty, as git does. */
async function removeFile(repo: Repo, path: string): Promise<void> {
  const files = repo.context.request.files
  if ((await files.stat(repo.absolute(path)))?.type === 'file') await files.remove(repo.absolute(path))
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
    const directory = repo.absolute(path.slice(0, at))
    if ((await files.list(directory).catch(() => [undefined])).length > 0) break
    await files.remove(directory)
  }
}

/** `git mv [-f] <source>… <destination>`: moves files and what the index knows of them. */
export async function mv(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths } = parseArgs(args, {
    flags: { '-f': 'force', '--force': 'force', '-v': 'verbose', '--verbose': 'verbose', '-k': 'skip' },
  })
  const repo = await Repo.open(context)
  const typed = [...operands, ...paths]
  if (typed.length < 2) throw new GitExit('usage: git mv [<options>] <source>... <destination>\n', 129)
  const files = context.request.files
  const destinationTyped = typed.at(-1)!
  const destination = repo.pathOf(destinationTyped)
  const destinationStat = await files.stat(repo.absolute(destination))
  const intoDirectory = destinationStat?.type === 'directory'
  if (typed.length > 2 && !intoDirectory) throw fatal(`destination '${destinationTyped}' is not a directory`)
  const index = await repo.indexFiles()
  for (const sourceTyped of typed.slice(0, -1)) {
    const source = repo.pathOf(sourceTyped)
    const target = intoDirectory ? (destination === '' ? '' : `${destination}/`) + source.slice(source.lastIndexOf('/') + 1) : destination
    const where = `source=${source}, destination=${target}`
    const sourceStat = await files.stat(repo.absolute(source))
    if (!sourceStat) throw fatal(`bad source, ${where}`)
    const tracked = [...index.keys()].filter((file) => matchesPathspec(file, [source]))
    if (tracked.length === 0) throw fatal(`not under version control, ${where}`)
    const targetStat = await files.stat(repo.absolute(target))
    if (targetStat && !(targetStat.type === 'file' && sourceStat.type === 'file' && options.has('force'))) {
      throw fatal(`destination exists, ${where}`)
    }
    const moved = sourceStat.type === 'file' ? [source] : await filesUnder(repo, source)
    for (const from of moved) {
      const to = target + from.slice(source.length)
      await files.writeFile(repo.absolute(to), await files.readFile(repo.absolute(from)))
      if (index.has(from)) {
        await git.remove({ ...repo.base, filepath: from })
        await git.add({ ...repo.base, filepath: to })
      }
      if (options.has('verbose')) context.out(`Renaming ${from} to ${to}\n`)
    }
    await files.remove(repo.absolute(source), { recursive: true })
  }
  return 0
}

async function filesUnder(repo: Repo, path: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await repo.context.request.files.list(repo.absolute(path))) {
    const child = `${path}/${entry.name}`
    if (entry.type === 'file') found.push(child)
    else found.push(...(await filesUnder(repo, child)))
  }
  return found
}

/** `git restore [--staged] [--worktree] [--source=<tree>] <pathspec>…`. */
export async function restore(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths } = parseArgs(args, {
    flags: { '-S': 'staged', '--staged': 'staged', '-W': 'worktree', '--worktree': 'worktree', '-q': 'quiet', '--quiet': 'quiet' },
    values: { '-s': 'source', '--source': 'source' },
  })
  const repo = await Repo.open(context)
  const typed = [...operands, ...paths]
  if (typed.length === 0) throw fatal('you must specify path(s) to restore')
  const staged = options.has('staged')
  const worktree = options.has('worktree') || !staged
  const source = options.get('source')?.at(-1)
  await restorePaths(repo, typed, { staged, worktree, source })
  return 0
}

/**
 * Puts the given paths back: the index from `source` (HEAD by default) when `staged`, the working tree from
 * `source` when given, else from the index, when `worktree`.
 */
export async function restorePaths(
  repo: Repo,
  typed: string[],
  { staged, worktree, source }: { staged: boolean; worktree: boolean; source?: string },
): Promise<void> {
  const sourceOid = source !== undefined || staged ? await repo.revision(source ?? 'HEAD') : undefined
  if (source !== undefined && !sourceOid) throw fatal(`could not resolve ${source}`)
  const index = await repo.indexFiles()
  const tree = await repo.treeFiles(sourceOid)
  const specs = typed.map((path) => repo.pathOf(path))
  for (const [at, spec] of specs.entries()) {
    const known = [...index.keys(), ...tree.keys()].some((file) => matchesPathspec(file, [spec]))
    if (!known) throw new GitExit(`error: pathspec '${typed[at]}' did not match any file(s) known to git\n`, 1)
  }
  if (staged) {
    for (const path of new Set([...index.keys(), ...tree.keys()])) {
      if (!matchesPathspec(path, specs)) continue
      if (tree.has(path)) await git.resetIndex({ ...repo.base, filepath: path, ref: sourceOid })
      else await git.remove({ ...repo.base, filepath: path })
    }
  }
  if (!worktree) return
  // With a source, the working tree takes the source's files (and loses those it lacks); else the index's.
  const from = source !== undefined || staged ? tree : index
  const files = repo.context.request.files
  for (const path of new Set([...index.keys(), ...tree.keys()])) {
    if (!matchesPathspec(path, specs)) continue
    const version = from.get(path)
    if (version) await files.writeFile(repo.absolute(path), await version.read())
    else if (staged || source !== undefined) await removeFile(repo, path)
  }
}
