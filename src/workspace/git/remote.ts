import * as git from 'isomorphic-git'
import { basename, resolvePath } from '../path'
import { parseArgs } from './args'
import { checkRemoteUrl, networkError, networkOptions } from './remote-http'
import { fatal, GitExit, Repo, short, type GitContext } from './repo'
import { upstreamOf } from './tracking'

// The commands that reach another repository over HTTP(S): remote, clone, fetch, pull, push.

/** `git remote [-v] | add <name> <url> | remove <name> | rename <old> <new> | get-url <name> | set-url <name> <url>`. */
export async function remote(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, { flags: { '-v': 'verbose', '--verbose': 'verbose' } })
  const repo = await Repo.open(context)
  const remotes = await git.listRemotes({ ...repo.base })
  const [action, ...rest] = operands
  const find = (name: string | undefined) => {
    const found = remotes.find((entry) => entry.remote === name)
    if (!found) throw new GitExit(`error: No such remote: '${name ?? ''}'\n`, 2)
    return found
  }
  switch (action) {
    case undefined:
      for (const entry of remotes) {
        context.out(options.has('verbose') ? `${entry.remote}\t${entry.url} (fetch)\n${entry.remote}\t${entry.url} (push)\n` : `${entry.remote}\n`)
      }
      return 0
    case 'add': {
      const [name, url] = rest
      if (!name || !url) throw new GitExit('usage: git remote add <name> <url>\n', 129)
      if (remotes.some((entry) => entry.remote === name)) throw new GitExit(`error: remote ${name} already exists.\n`, 3)
      checkRemoteUrl(url)
      await git.addRemote({ ...repo.base, remote: name, url })
      return 0
    }
    case 'remove':
    case 'rm': {
      const name = find(rest[0]).remote
      await git.deleteRemote({ ...repo.base, remote: name })
      for (const ref of await git.listBranches({ ...repo.base, remote: name })) {
        await git.deleteRef({ ...repo.base, ref: `refs/remotes/${name}/${ref}` }).catch(() => undefined)
      }
      return 0
    }
    case 'get-url':
      context.out(`${find(rest[0]).url}\n`)
      return 0
    case 'set-url': {
      const [name, url] = rest
      if (!url) throw new GitExit('usage: git remote set-url <name> <newurl>\n', 129)
      find(name)
      checkRemoteUrl(url)
      await git.addRemote({ ...repo.base, remote: name!, url, force: true })
      return 0
    }
    default:
      throw new GitExit(`error: unknown subcommand: \`${action}'\nusage: git remote [-v | add | remove | get-url | set-url]\n`, 129)
  }
}

/** The directory `git clone` makes by default: the URL's last segment without `.git`. */
export function cloneDirectoryName(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, '')
  return basename(path).replace(/\.git$/, '') || new URL(url).hostname
}

/** `git clone [-b <branch>] [--depth <n>] [--single-branch] [-o <name>] <url> [<directory>]`. */
export async function clone(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: { '--single-branch': 'single', '-q': 'quiet', '--quiet': 'quiet', '--no-checkout': 'noCheckout', '-n': 'noCheckout', '--no-tags': 'noTags' },
    values: { '-b': 'branch', '--branch': 'branch', '--depth': 'depth', '-o': 'origin', '--origin': 'origin' },
  })
  const [url, target] = operands
  if (!url) throw new GitExit('fatal: You must specify a repository to clone.\n\nusage: git clone [<options>] [--] <repo> [<dir>]\n', 129)
  checkRemoteUrl(url)
  const name = target ?? cloneDirectoryName(url)
  const dir = resolvePath(context.request.cwd, name)
  const files = context.request.files
  const existing = await files.stat(dir)
  if (existing && (existing.type !== 'directory' || (await files.list(dir)).length > 0)) {
    throw fatal(`destination path '${name}' already exists and is not an empty directory.`)
  }
  const depth = options.get('depth')?.at(-1)
  if (depth !== undefined && !/^[1-9]\d*$/.test(depth)) throw fatal(`depth ${depth} is not a positive number`)
  if (!options.has('quiet')) context.err(`Cloning into '${name}'...\n`)
  const network = await networkOptions(context, url)
  try {
    await files.mkdir(dir, { recursive: true })
    await git.clone({
      fs: context.fs,
      dir,
      url,
      ...network,
      ...(options.has('branch') ? { ref: options.get('branch')!.at(-1)! } : {}),
      ...(depth ? { depth: Number(depth) } : {}),
      remote: options.get('origin')?.at(-1) ?? 'origin',
      singleBranch: options.has('single') || depth !== undefined,
      noCheckout: options.has('noCheckout'),
      noTags: options.has('noTags'),
    })
  } catch (error) {
    // As git does: a failed clone leaves nothing behind (an empty directory the user made stays).
    if (existing) {
      for (const entry of await files.list(dir).catch(() => [])) await files.remove(`${dir}/${entry.name}`, { recursive: true }).catch(() => undefined)
    } else await files.remove(dir, { recursive: true }).catch(() => undefined)
    throw networkError(error, url, network.corsProxy)
  }
  const repo = new Repo({ ...context, request: { ...context.request, cwd: dir } }, dir)
  if (!(await repo.head())) {
    // The server's HEAD of an empty repository is not advertised to isomorphic-git; the branch is `git init`'s.
    const initial = options.get('branch')?.at(-1) ?? 'main'
    await git.writeRef({ ...repo.base, ref: 'HEAD', value: `refs/heads/${initial}`, symbolic: true, force: true })
    context.err('warning: You appear to have cloned an empty repository.\n')
  }
  return 0
}

/** A remote's name and URL, by name; git's wording when there is none. */
async function remoteUrl(repo: Repo, name: string): Promise<string> {
  const url = await repo.config(`remote.${name}.url`)
  if (!url) {
    throw fatal(`'${name}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.`)
  }
  return url
}

/** The remote-tracking refs of one remote, by name, with their commits. */
async function trackingRefs(repo: Repo, remoteName: string): Promise<Map<string, string>> {
  const refs = new Map<string, string>()
  for (const name of await git.listBranches({ ...repo.base, remote: remoteName })) {
    if (name === 'HEAD') continue
    const oid = await git.resolveRef({ ...repo.base, ref: `refs/remotes/${remoteName}/${name}` }).catch(() => undefined)
    if (oid) refs.set(name, oid)
  }
  return refs
}

/** Fetches a remote and prints what moved, as git's `From <url>` block. */
async function fetchRemote(context: GitContext, repo: Repo, remoteName: string, prune: boolean): Promise<void> {
  const url = await remoteUrl(repo, remoteName)
  const network = await networkOptions(context, url)
  const before = await trackingRefs(repo, remoteName)
  try {
    await git.fetch({ ...repo.base, ...network, remote: remoteName, prune, tags: false })
  } catch (error) {
    throw networkError(error, url, network.corsProxy)
  }
  const after = await trackingRefs(repo, remoteName)
  const lines: string[] = []
  // git pads the branch column to the longest name, at least 10 wide.
  const width = Math.max(10, ...[...after.keys()].map((name) => name.length))
  for (const [name, oid] of after) {
    const old = before.get(name)
    if (old === oid) continue
    const target = `${remoteName}/${name}`
    if (!old) lines.push(` * [new branch]      ${name.padEnd(width)} -> ${target}\n`)
    else {
      const forward = await git.isDescendent({ ...repo.base, oid, ancestor: old, depth: -1 }).catch(() => false)
      lines.push(forward ? `   ${short(old)}..${short(oid)}  ${name.padEnd(width)} -> ${target}\n` : ` + ${short(old)}...${short(oid)} ${name.padEnd(width)} -> ${target}  (forced update)\n`)
    }
  }
  for (const name of before.keys()) if (prune && !after.has(name)) lines.push(` - [deleted]         (none)     -> ${remoteName}/${name}\n`)
  if (lines.length > 0) context.err(`From ${url}\n${lines.join('')}`)
}

/** `git fetch [--all] [--prune] [<remote>]`. */
export async function fetchRemotes(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: { '--all': 'all', '-p': 'prune', '--prune': 'prune', '-q': 'quiet', '--quiet': 'quiet', '--tags': 'tags' },
  })
  const repo = await Repo.open(context)
  const branch = await repo.headBranch()
  const names = options.has('all')
    ? (await git.listRemotes({ ...repo.base })).map((entry) => entry.remote)
    : [operands[0] ?? (branch ? (await upstreamOf(repo, branch))?.remote : undefined) ?? 'origin']
  for (const name of names) await fetchRemote(context, repo, name, options.has('prune'))
  return 0
}

/** `git pull [--ff-only] [<remote> [<branch>]]`: fetch, then fast-forward or merge the upstream into the branch. */
export async function pull(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: { '--ff-only': 'ffOnly', '--ff': 'ff', '--no-rebase': 'noRebase', '-q': 'quiet', '--quiet': 'quiet', '--rebase': 'rebase', '-r': 'rebase' },
  })
  if (options.has('rebase')) throw fatal('pull --rebase is not supported by the offline git (isomorphic-git has no rebase); use git pull')
  const repo = await Repo.open(context)
  const branch = await repo.headBranch()
  if (!branch) throw fatal('You are not currently on a branch.')
  const upstream = await upstreamOf(repo, branch)
  const remoteName = operands[0] ?? upstream?.remote
  const theirs = operands[1] ?? (operands[0] === undefined || operands[0] === upstream?.remote ? upstream?.branch : undefined)
  if (!remoteName || !theirs) {
    throw new GitExit(
      'There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\n\n' +
        '    git pull <remote> <branch>\n\nIf you wish to set tracking information for this branch you can do so with:\n\n' +
        `    git branch --set-upstream-to=origin/<branch> ${branch}\n\n`,
      1,
    )
  }
  await fetchRemote(context, repo, remoteName, false)
  const theirRef = `refs/remotes/${remoteName}/${theirs}`
  const theirOid = await git.resolveRef({ ...repo.base, ref: theirRef }).catch(() => undefined)
  if (!theirOid) throw fatal(`couldn't find remote ref ${theirs}`)
  const head = await repo.head()
  if (head === theirOid || (head && (await git.isDescendent({ ...repo.base, oid: head, ancestor: theirOid, depth: -1 })))) {
    context.out('Already up to date.\n')
    return 0
  }
  const fastForward = !head || (await git.isDescendent({ ...repo.base, oid: theirOid, ancestor: head, depth: -1 }))
  if (!fastForward && options.has('ffOnly')) throw fatal('Not possible to fast-forward, aborting.')
  if (fastForward) {
    // isomorphic-git's merge wants an author even to fast-forward; moving the branch needs none.
    await git.writeRef({ ...repo.base, ref: `refs/heads/${branch}`, value: theirOid, force: true })
  } else {
    try {
      await git.merge({
        ...repo.base,
        ours: branch,
        theirs: theirRef,
        author: await repo.author('AUTHOR'),
        committer: await repo.author('COMMITTER'),
        message: `Merge branch '${theirs}' of ${await remoteUrl(repo, remoteName)}`,
      })
    } catch (error) {
      if (error instanceof git.Errors.MergeConflictError || error instanceof git.Errors.MergeNotSupportedError) {
        const paths = error instanceof git.Errors.MergeConflictError ? error.data.filepaths.map((path) => `\t${path}\n`).join('') : ''
        throw new GitExit(
          `error: The merge of ${remoteName}/${theirs} conflicts in:\n${paths}fatal: the offline git (isomorphic-git) cannot leave a conflicted merge to resolve; nothing was changed\n`,
          128,
        )
      }
      throw error
    }
  }
  try {
    await git.checkout({ ...repo.base, ref: branch })
  } catch (error) {
    if (error instanceof git.Errors.CheckoutConflictError) {
      // Nothing of the pull stays: the branch goes back to where it was, with the user's changes untouched.
      if (head) await git.writeRef({ ...repo.base, ref: `refs/heads/${branch}`, value: head, force: true })
      const paths = error.data.filepaths.map((path) => `\t${path}\n`).join('')
      throw new GitExit(`error: Your local changes to the following files would be overwritten by merge:\n${paths}Please commit your changes or stash them before you merge.\nAborting\n`, 1)
    }
    throw error
  }
  const after = await repo.head()
  if (fastForward) context.out(`Updating ${short(head ?? '')}..${short(after ?? '')}\nFast-forward\n`)
  else context.out("Merge made by the 'ort' strategy.\n")
  return 0
}

/** `git push [-u] [-f] [<remote> [<branch>[:<remote-branch>]]]`. */
export async function push(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: {
      '-u': 'upstream', '--set-upstream': 'upstream', '-f': 'force', '--force': 'force', '--force-with-lease': 'force',
      '-q': 'quiet', '--quiet': 'quiet', '--delete': 'delete', '-d': 'delete',
    },
  })
  const repo = await Repo.open(context)
  const branch = await repo.headBranch()
  const upstream = branch ? await upstreamOf(repo, branch) : undefined
  const remoteName = operands[0] ?? upstream?.remote ?? 'origin'
  const url = await remoteUrl(repo, remoteName)
  const spec = operands[1] ?? (upstream && upstream.remote === remoteName ? `${branch}:${upstream.branch}` : branch)
  if (!spec) throw fatal('You are not currently on a branch.')
  const [local, remoteBranch] = spec.includes(':') ? (spec.split(':', 2) as [string, string]) : [spec, spec]
  const remoteRef = `refs/remotes/${remoteName}/${remoteBranch}`
  const before = await git.resolveRef({ ...repo.base, ref: remoteRef }).catch(() => undefined)
  const oid = options.has('delete') ? undefined : await repo.revision(local)
  if (!options.has('delete') && !oid) throw new GitExit(`error: src refspec ${local} does not match any\nerror: failed to push some refs to '${url}'\n`, 1)
  const network = await networkOptions(context, url)
  let result: git.PushResult
  try {
    result = await git.push({
      ...repo.base,
      ...network,
      remote: remoteName,
      ref: options.has('delete') ? remoteBranch : local,
      remoteRef: remoteBranch,
      force: options.has('force'),
      delete: options.has('delete'),
    })
  } catch (error) {
    if (error instanceof git.Errors.PushRejectedError) {
      throw new GitExit(
        `To ${url}\n ! [rejected]        ${local} -> ${remoteBranch} (fetch first)\nerror: failed to push some refs to '${url}'\n` +
          'hint: Updates were rejected because the remote contains work that you do not\n' +
          "hint: have locally. Integrate the remote changes (e.g. 'git pull ...') before pushing again.\n",
        1,
      )
    }
    throw networkError(error, url, network.corsProxy)
  }
  const status = result.refs[`refs/heads/${remoteBranch}`]
  if (!result.ok || (status && !status.ok)) {
    const reason = status?.error ?? result.error ?? 'rejected'
    throw new GitExit(`To ${url}\n ! [remote rejected] ${local} -> ${remoteBranch} (${reason})\nerror: failed to push some refs to '${url}'\n`, 1)
  }
  if (options.has('delete')) {
    await git.deleteRef({ ...repo.base, ref: remoteRef }).catch(() => undefined)
    context.err(`To ${url}\n - [deleted]         ${remoteBranch}\n`)
    return 0
  }
  // isomorphic-git moves the remote-tracking branch itself; written here too so `status` agrees whatever it did.
  await git.writeRef({ ...repo.base, ref: remoteRef, value: oid!, force: true })
  if (before === oid) context.err('Everything up-to-date\n')
  else if (!before) context.err(`To ${url}\n * [new branch]      ${local} -> ${remoteBranch}\n`)
  else context.err(`To ${url}\n   ${short(before)}..${short(oid!)}  ${local} -> ${remoteBranch}\n`)
  if (options.has('upstream') && branch && local === branch) {
    await git.setConfig({ ...repo.base, path: `branch.${branch}.remote`, value: remoteName })
    await git.setConfig({ ...repo.base, path: `branch.${branch}.merge`, value: `refs/heads/${remoteBranch}` })
    context.out(`branch '${branch}' set up to track '${remoteName}/${remoteBranch}'.\n`)
  }
  return 0
}

