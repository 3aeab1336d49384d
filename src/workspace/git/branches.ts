import * as git from 'isomorphic-git'
import { parseArgs } from './args'
import { fatal, GitExit, Repo, short, type GitContext } from './repo'
import { readStatus } from './status'
import { restorePaths } from './worktree'

// Branches and where HEAD points: checkout, switch and branch.

/** Switches HEAD to a branch, updating the index and working tree; local changes it would lose stop it. */
async function switchTo(context: GitContext, repo: Repo, branch: string, force: boolean): Promise<number> {
  if ((await repo.headBranch()) === branch) {
    context.err(`Already on '${branch}'\n`)
    return 0
  }
  try {
    await git.checkout({ ...repo.base, ref: branch, force })
  } catch (error) {
    if (error instanceof git.Errors.CheckoutConflictError) {
      const files = error.data.filepaths.map((path) => `\t${path}\n`).join('')
      throw new GitExit(
        `error: Your local changes to the following files would be overwritten by checkout:\n${files}Please commit your changes or stash them before you switch branches.\nAborting\n`,
        1,
      )
    }
    throw error
  }
  // Local changes the switch carried over are listed, as git lists them.
  for (const entry of (await readStatus(repo)).entries) {
    context.out(`${entry.work === ' ' ? entry.index : entry.work}\t${repo.shown(entry.path)}\n`)
  }
  context.err(`Switched to branch '${branch}'\n`)
  return 0
}

/** Makes a branch at `start` (HEAD by default) and switches to it; before the first commit, only HEAD moves. */
async function createAndSwitch(context: GitContext, repo: Repo, name: string, start: string | undefined, reset: boolean): Promise<number> {
  const exists = (await git.listBranches({ ...repo.base })).includes(name)
  if (exists && !reset) throw fatal(`a branch named '${name}' already exists`)
  const head = await repo.head()
  const object = start === undefined ? head : await repo.commitOf(start)
  if (!object) {
    await git.writeRef({ ...repo.base, ref: 'HEAD', value: `refs/heads/${name}`, symbolic: true, force: true })
  } else {
    await makeBranch(repo, name, object, reset)
    if (object === head) await git.writeRef({ ...repo.base, ref: 'HEAD', value: `refs/heads/${name}`, symbolic: true, force: true })
    else {
      const code = await switchTo(context, repo, name, false)
      if (code !== 0) return code
    }
  }
  context.err(`Switched to ${reset && exists ? 'and reset branch' : 'a new branch'} '${name}'\n`)
  return 0
}

async function makeBranch(repo: Repo, name: string, object: string, force: boolean): Promise<void> {
  try {
    await git.branch({ ...repo.base, ref: name, object, force })
  } catch (error) {
    if (error instanceof git.Errors.InvalidRefNameError) throw fatal(`'${name}' is not a valid branch name`)
    throw error
  }
}

/** `git checkout <branch> | -b <new> [<start>] | [<commit>] -- <path>… | <commit>` (detached). */
export async function checkout(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths, dashDash } = parseArgs(args, {
    flags: { '-f': 'force', '--force': 'force', '-q': 'quiet', '--quiet': 'quiet', '--detach': 'detach' },
    values: { '-b': 'create', '-B': 'reset' },
  })
  const repo = await Repo.open(context)
  const force = options.has('force')
  const create = options.get('create')?.at(-1) ?? options.get('reset')?.at(-1)
  if (create !== undefined) return createAndSwitch(context, repo, create, operands[0], options.has('reset'))
  if (dashDash) {
    if (operands.length > 1) throw new GitExit('usage: git checkout [<commit>] -- <path>...\n', 129)
    await restorePaths(repo, paths, { staged: operands.length > 0, worktree: true, source: operands[0] })
    return 0
  }
  if (operands.length === 0) throw new GitExit('usage: git checkout [<options>] <branch>\n', 129)
  const [first, ...rest] = operands as [string, ...string[]]
  const branches = await git.listBranches({ ...repo.base })
  if (rest.length === 0 && branches.includes(first) && !options.has('detach')) return switchTo(context, repo, first, force)
  const oid = rest.length === 0 ? await repo.revision(first) : undefined
  if (oid) return detach(context, repo, oid, first, force)
  // Not a revision: paths, restored from the index (git guesses the same way without `--`).
  await restorePaths(repo, operands, { staged: false, worktree: true })
  return 0
}

async function detach(context: GitContext, repo: Repo, oid: string, name: string, force: boolean): Promise<number> {
  try {
    await git.checkout({ ...repo.base, ref: oid, force })
  } catch (error) {
    if (error instanceof git.Errors.CheckoutConflictError) {
      const files = error.data.filepaths.map((path) => `\t${path}\n`).join('')
      throw new GitExit(`error: Your local changes to the following files would be overwritten by checkout:\n${files}Aborting\n`, 1)
    }
    throw error
  }
  const subject = (await repo.readCommit(oid)).message.split('\n')[0]
  context.err(
    `Note: switching to '${name}'.\n\nYou are in 'detached HEAD' state. Commits you make here belong to no branch;\n` +
      `create one with 'git switch -c <new-branch-name>' to keep them.\n\nHEAD is now at ${short(oid)} ${subject}\n`,
  )
  return 0
}

/** `git switch <branch> | -c <new> [<start>] | --detach <commit>`. */
export async function switchBranch(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: { '-f': 'force', '--force': 'force', '--discard-changes': 'force', '-q': 'quiet', '--detach': 'detach', '-d': 'detach' },
    values: { '-c': 'create', '--create': 'create', '-C': 'reset', '--force-create': 'reset' },
  })
  const repo = await Repo.open(context)
  const create = options.get('create')?.at(-1) ?? options.get('reset')?.at(-1)
  if (create !== undefined) return createAndSwitch(context, repo, create, operands[0], options.has('reset'))
  const target = operands[0]
  if (target === undefined) throw fatal('missing branch or commit argument')
  if (options.has('detach')) return detach(context, repo, await repo.commitOf(target), target, options.has('force'))
  if (!(await git.listBranches({ ...repo.base })).includes(target)) throw fatal(`invalid reference: ${target}`)
  return switchTo(context, repo, target, options.has('force'))
}

/** `git branch [-v] | <name> [<start>] | -d|-D <name>… | -m [<old>] <new> | --show-current`. */
export async function branch(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: {
      '-d': 'delete', '--delete': 'delete', '-D': 'forceDelete', '-l': 'list', '--list': 'list', '-a': 'all', '--all': 'all', '-r': 'remotes', '--remotes': 'remotes',
      '-v': 'verbose', '-vv': 'verbose', '--verbose': 'verbose', '--show-current': 'current', '-m': 'move', '--move': 'move',
      '-M': 'move', '-f': 'force', '--force': 'force',
    },
  })
  const repo = await Repo.open(context)
  const current = await repo.headBranch()
  if (options.has('current')) {
    if (current) context.out(`${current}\n`)
    return 0
  }
  const branches = (await git.listBranches({ ...repo.base })).sort()
  if (options.has('delete') || options.has('forceDelete')) {
    if (operands.length === 0) throw fatal('branch name required')
    let code = 0
    for (const name of operands) {
      if (name === current) {
        context.err(`error: Cannot delete branch '${name}' checked out at '${repo.dir}'\n`)
        code = 1
        continue
      }
      if (!branches.includes(name)) {
        context.err(`error: branch '${name}' not found.\n`)
        code = 1
        continue
      }
      const oid = await git.resolveRef({ ...repo.base, ref: `refs/heads/${name}` })
      const head = await repo.head()
      const merged = head !== undefined && (oid === head || (await git.isDescendent({ ...repo.base, oid: head, ancestor: oid, depth: -1 })))
      if (!merged && !options.has('forceDelete')) {
        context.err(`error: the branch '${name}' is not fully merged\nhint: If you are sure you want to delete it, run 'git branch -D ${name}'\n`)
        code = 1
        continue
      }
      await git.deleteBranch({ ...repo.base, ref: name })
      context.out(`Deleted branch ${name} (was ${short(oid)}).\n`)
    }
    return code
  }
  if (options.has('move')) {
    const [from, to] = operands.length === 1 ? [current, operands[0]] : operands
    if (!from || !to) throw fatal('branch name required')
    if (!branches.includes(from)) throw fatal(`no branch named '${from}'`)
    await git.renameBranch({ ...repo.base, oldref: from, ref: to, checkout: from === current })
    return 0
  }
  if (operands.length > 0 && !options.has('list') && !options.has('all') && !options.has('remotes')) {
    const [name, start] = operands as [string, string | undefined]
    if (branches.includes(name) && !options.has('force')) throw fatal(`a branch named '${name}' already exists`)
    const object = start === undefined ? await repo.head() : await repo.revision(start)
    if (!object) throw fatal(`not a valid object name: '${start ?? current ?? 'HEAD'}'`)
    await makeBranch(repo, name, object, options.has('force'))
    return 0
  }
  // Each row: the mark, the name shown, and the ref it names (a remote's HEAD shows where it points instead).
  const rows: [string, string, string][] = []
  const head = await repo.head()
  if (!options.has('remotes')) {
    if (!current && head) rows.push(['* ', `(HEAD detached at ${short(head)})`, 'HEAD'])
    for (const name of branches) rows.push([name === current ? '* ' : '  ', name, `refs/heads/${name}`])
  }
  if (options.has('all') || options.has('remotes')) rows.push(...(await remoteRows(repo, options.has('all') ? 'remotes/' : '')))
  const width = Math.max(0, ...rows.map(([, name]) => name.length))
  for (const [mark, name, ref] of rows) {
    if (!options.has('verbose') || name.includes(' -> ')) context.out(`${mark}${name}\n`)
    else {
      const oid = await git.resolveRef({ ...repo.base, ref })
      const subject = (await repo.readCommit(oid)).message.split('\n')[0]
      context.out(`${mark}${name.padEnd(width)} ${short(oid)} ${subject}\n`)
    }
  }
  return 0
}

/** The remote-tracking branches, as `git branch -r` (or `-a`, with `remotes/` before each) lists them. */
async function remoteRows(repo: Repo, prefix: string): Promise<[string, string, string][]> {
  const rows: [string, string, string][] = []
  for (const { remote } of (await git.listRemotes({ ...repo.base })).sort((a, b) => a.remote.localeCompare(b.remote))) {
    for (const name of (await git.listBranches({ ...repo.base, remote })).sort()) {
      const ref = `refs/remotes/${remote}/${name}`
      if (name === 'HEAD') {
        const target = await git.resolveRef({ ...repo.base, ref, depth: 2 }).catch(() => undefined)
        if (target?.startsWith('refs/remotes/')) rows.push(['  ', `${prefix}${remote}/HEAD -> ${target.slice('refs/remotes/'.length)}`, ref])
        continue
      }
      rows.push(['  ', `${prefix}${remote}/${name}`, ref])
    }
  }
  return rows
}
