import * as git from 'isomorphic-git'
import { parseArgs } from './args'
import { compare, formatPatch, formatStat, type FileChange } from './diff'
import { fatal, matchesPathspec, Repo, short, type FileSet, type GitContext } from './repo'

type Commit = Awaited<ReturnType<Repo['readCommit']>>

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** git's default date: `Tue Dec 1 21:08:10 2026 +0000`, in the time zone the commit was made in. */
export function formatDate(timestamp: number, timezoneOffset: number): string {
  const local = new Date((timestamp - timezoneOffset * 60) * 1000)
  const pad = (value: number) => String(value).padStart(2, '0')
  const east = -timezoneOffset
  const zone = `${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 60))}${pad(Math.abs(east) % 60)}`
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`
  return `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()} ${time} ${local.getUTCFullYear()} ${zone}`
}

/** The names pointing at each commit, as `git log` decorates it: `HEAD -> main, feature, tag: v1`. */
async function decorations(repo: Repo): Promise<Map<string, string>> {
  const names = new Map<string, string[]>()
  const push = (oid: string, name: string) => names.set(oid, [...(names.get(oid) ?? []), name])
  const head = await repo.head()
  const current = await repo.headBranch()
  if (head) push(head, current ? `HEAD -> ${current}` : 'HEAD')
  for (const branch of (await git.listBranches({ ...repo.base })).sort()) {
    if (branch === current) continue
    push(await git.resolveRef({ ...repo.base, ref: `refs/heads/${branch}` }), branch)
  }
  for (const tag of await git.listTags({ ...repo.base })) {
    const oid = await repo.revision(tag)
    if (oid) push(oid, `tag: ${tag}`)
  }
  // Remote-tracking branches, each remote's HEAD after its branches, as git shows a fresh clone: `origin/main, origin/HEAD`.
  for (const { remote } of await git.listRemotes({ ...repo.base })) {
    const branches = (await git.listBranches({ ...repo.base, remote })).sort()
    for (const branch of [...branches.filter((name) => name !== 'HEAD'), ...branches.filter((name) => name === 'HEAD')]) {
      const oid = await git.resolveRef({ ...repo.base, ref: `refs/remotes/${remote}/${branch}` }).catch(() => undefined)
      if (oid) push(oid, `${remote}/${branch}`)
    }
  }
  return new Map([...names].map(([oid, list]) => [oid, list.join(', ')]))
}

function header(oid: string, commit: Commit, decoration: string | undefined): string {
  let text = `commit ${oid}${decoration ? ` (${decoration})` : ''}\n`
  if (commit.parent.length > 1) text += `Merge: ${commit.parent.map(short).join(' ')}\n`
  text += `Author: ${commit.author.name} <${commit.author.email}>\n`
  text += `Date:   ${formatDate(commit.author.timestamp, commit.author.timezoneOffset)}\n\n`
  for (const line of commit.message.replace(/\n+$/, '').split('\n')) text += line === '' ? '\n' : `    ${line}\n`
  return text
}

/** `--pretty`/`--format` placeholders: `%h %s (%an, %ar)` and the like. */
function formatPretty(format: string, oid: string, commit: Commit, decoration: string | undefined, now: number): string {
  const [subject = '', ...rest] = commit.message.replace(/\n+$/, '').split('\n')
  const body = rest.join('\n').replace(/^\n+/, '')
  const date = (who: Commit['author']) => formatDate(who.timestamp, who.timezoneOffset)
  const values: Record<string, () => string> = {
    H: () => oid, h: () => short(oid), T: () => commit.tree, t: () => short(commit.tree),
    P: () => commit.parent.join(' '), p: () => commit.parent.map(short).join(' '),
    s: () => subject, b: () => (body ? `${body}\n` : ''), B: () => commit.message,
    an: () => commit.author.name, ae: () => commit.author.email, ad: () => date(commit.author),
    ar: () => relativeDate(commit.author.timestamp, now), at: () => String(commit.author.timestamp),
    cn: () => commit.committer.name, ce: () => commit.committer.email, cd: () => date(commit.committer),
    cr: () => relativeDate(commit.committer.timestamp, now), ct: () => String(commit.committer.timestamp),
    d: () => (decoration ? ` (${decoration})` : ''), D: () => decoration ?? '', n: () => '\n', '%': () => '%',
  }
  return format.replace(/%(an|ae|ad|ar|at|cn|ce|cd|cr|ct|[HhTtPpsbBdDn%])/g, (_, key: string) => values[key]!())
}

/** `3 minutes ago`, as `%ar` and `--date=relative` word it. */
export function relativeDate(timestamp: number, now: number): string {
  const seconds = Math.max(0, Math.round(now / 1000 - timestamp))
  const units: [number, string][] = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month']]
  let value = seconds
  for (const [size, name] of units) {
    if (value < size) return `${value} ${name}${value === 1 ? '' : 's'} ago`
    value = Math.floor(value / size)
  }
  return `${value} year${value === 1 ? '' : 's'} ago`
}

/** The paths whose content or mode differs between two file sets (no contents read). */
function changedPaths(before: FileSet, after: FileSet): string[] {
  const paths = new Set([...before.keys(), ...after.keys()])
  return [...paths].filter((path) => before.get(path)?.oid !== after.get(path)?.oid || before.get(path)?.mode !== after.get(path)?.mode)
}

/**
 * `git log [--oneline] [--graph] [--all] [-n N | -N] [--stat | -p | --name-only | --name-status]
 * [--format=<format>] [<revision>] [[--] <path>…]`. Histories here have no merges, so `--graph` is a line of `*`.
 */
export async function log(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths, dashDash } = parseArgs(args, {
    flags: {
      ...DIFF_FLAGS, '--oneline': 'oneline', '--no-decorate': 'noDecorate', '--decorate': 'decorate', '--graph': 'graph',
      '--all': 'all', '--reverse': 'reverse', '--no-merges': 'noMerges', '--first-parent': 'firstParent',
    },
    values: { '-n': 'count', '--max-count': 'count', '--format': 'format', '--pretty': 'format' },
    numeric: 'count',
  })
  const repo = await Repo.open(context)
  const count = options.get('count')?.at(-1)
  if (count !== undefined && !/^\d+$/.test(count)) throw fatal(`'${count}': not an integer`)
  const typedPaths = [...paths]
  const starts: string[] = []
  for (const [at, operand] of operands.entries()) {
    const oid = await repo.revision(operand)
    if (oid) starts.push(oid)
    else if (!dashDash && (await context.request.files.stat(repo.absolute(repo.pathOf(operand))))) {
      typedPaths.push(...operands.slice(at))
      break
    } else throw fatal(`ambiguous argument '${operand}': unknown revision or path not in the working tree.`)
  }
  if (options.has('all')) {
    for (const branch of await git.listBranches({ ...repo.base })) starts.push(await git.resolveRef({ ...repo.base, ref: `refs/heads/${branch}` }))
  }
  const head = await repo.head()
  if (starts.length === 0 && head) starts.push(head)
  if (starts.length === 0) throw fatal(`your current branch '${(await repo.headBranch()) ?? 'HEAD'}' does not have any commits yet`)
  const seen = new Map<string, Commit>()
  for (const start of new Set(starts)) {
    for (const { oid, commit } of await git.log({ ...repo.base, ref: start, cache: repo.cache })) seen.set(oid, commit)
  }
  let commits = [...seen].sort(([, a], [, b]) => b.committer.timestamp - a.committer.timestamp)
  const specs = typedPaths.map((path) => repo.pathOf(path))
  if (specs.length > 0) {
    const touching: typeof commits = []
    for (const entry of commits) {
      const [oid, commit] = entry
      const changed = changedPaths(await repo.treeFiles(commit.parent[0]), await repo.treeFiles(oid))
      if (changed.some((path) => matchesPathspec(path, specs))) touching.push(entry)
    }
    commits = touching
  }
  if (count !== undefined) commits = commits.slice(0, Number(count))
  if (options.has('reverse')) commits.reverse()
  const showChanges = ['stat', 'patch', 'nameOnly', 'nameStatus'].some((name) => options.has(name))
  const names = options.has('noDecorate') ? new Map<string, string>() : await decorations(repo)
  const format = options.get('format')?.at(-1)
  const medium = !options.has('oneline') && (format === undefined || ['medium', 'short', 'full', 'fuller'].includes(format))
  const entries: string[] = []
  for (const [oid, commit] of commits) {
    const decoration = names.get(oid)
    const subject = commit.message.split('\n')[0]
    let text: string
    if (medium) text = header(oid, commit, decoration)
    else if (format === 'oneline') text = `${oid}${decoration ? ` (${decoration})` : ''} ${subject}\n`
    else if (format !== undefined) text = `${formatPretty(format.replace(/^t?format:/, ''), oid, commit, decoration, context.now())}\n`
    else text = `${short(oid)} ${decoration ? `(${decoration}) ` : ''}${subject}\n`
    if (showChanges) {
      const changes = await compare(await repo.treeFiles(commit.parent[0]), await repo.treeFiles(oid), (path) => matchesPathspec(path, specs))
      if (changes.length > 0) text += (medium ? '\n' : '') + formatChanges(changes, options)
    }
    entries.push(text)
  }
  if (!options.has('graph')) {
    context.out(entries.join(medium ? '\n' : ''))
    return 0
  }
  // Without merges the graph is a single line: `*` starts each commit, `|` carries its other lines.
  const drawn = entries.map((text) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((line, index) => (index === 0 ? `* ${line}` : line === '' ? '|' : `| ${line}`))
      .join('\n'),
  )
  context.out(`${drawn.join(medium ? '\n|\n' : '\n')}\n`)
  return 0
}

/** How a diff's output is shaped: patches (the default), `--stat`, `--name-only` or `--name-status`. */
function formatChanges(changes: FileChange[], options: Map<string, string[]>): string {
  if (options.has('stat')) return formatStat(changes)
  if (options.has('nameOnly')) return changes.map((change) => `${change.path}\n`).join('')
  if (options.has('nameStatus')) {
    return changes.map((change) => `${!change.before ? 'A' : !change.after ? 'D' : 'M'}\t${change.path}\n`).join('')
  }
  return changes.map(formatPatch).join('')
}

const DIFF_FLAGS = {
  '--stat': 'stat', '--name-only': 'nameOnly', '--name-status': 'nameStatus', '--no-color': 'noColor', '--color': 'noColor',
  '--no-ext-diff': 'noColor', '-p': 'patch', '--patch': 'patch',
}

/** `git show [--stat] [<commit>]`, or `git show <commit>:<path>` for a file as it was. */
export async function show(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, { flags: { ...DIFF_FLAGS, '--oneline': 'oneline', '-s': 'noPatch', '--no-patch': 'noPatch' } })
  const repo = await Repo.open(context)
  for (const spec of operands.length > 0 ? operands : ['HEAD']) {
    const colon = spec.indexOf(':')
    if (colon !== -1) {
      const oid = await repo.commitOf(spec.slice(0, colon) || 'HEAD')
      const path = spec.slice(colon + 1).replace(/^\.\//, '')
      const file = (await repo.treeFiles(oid)).get(path)
      if (!file) throw fatal(`path '${path}' does not exist in '${spec.slice(0, colon) || 'HEAD'}'`)
      context.out(new TextDecoder().decode(await file.read()))
      continue
    }
    const oid = await repo.commitOf(spec)
    const commit = await repo.readCommit(oid)
    const names = await decorations(repo)
    let text = options.has('oneline') ? `${short(oid)} ${commit.message.split('\n')[0]}\n` : header(oid, commit, names.get(oid))
    if (!options.has('noPatch')) {
      const changes = await compare(await repo.treeFiles(commit.parent[0]), await repo.treeFiles(oid))
      if (changes.length > 0) text += (options.has('oneline') ? '' : '\n') + formatChanges(changes, options)
    }
    context.out(text)
  }
  return 0
}

/**
 * `git diff` (index → working tree), `--cached`/`--staged [<commit>]` (commit → index), `<commit>` (commit →
 * working tree), `<a> <b>` or `<a>..<b>`; `--stat`, `--name-only`, `--name-status`, `--quiet`/`--exit-code`; paths
 * after `--` (or operands that are no revision) narrow it.
 */
export async function diff(context: GitContext, args: string[]): Promise<number> {
  const { options, operands, paths, dashDash } = parseArgs(args, {
    flags: { ...DIFF_FLAGS, '--cached': 'cached', '--staged': 'cached', '--quiet': 'quiet', '--exit-code': 'exitCode' },
  })
  const repo = await Repo.open(context)
  const revisions: string[] = []
  const typedPaths = [...paths]
  for (const [at, operand] of operands.entries()) {
    const range = /^(.*?)\.\.(.*)$/.exec(operand)
    if (range) {
      revisions.push(await repo.commitOf(range[1] || 'HEAD'), await repo.commitOf(range[2] || 'HEAD'))
      continue
    }
    const oid = await repo.revision(operand)
    if (oid) {
      revisions.push(oid)
      continue
    }
    // Without `--`, git takes the first operand that names no revision but an existing file as the start of the paths.
    if (!dashDash && (await context.request.files.stat(repo.absolute(repo.pathOf(operand))))) {
      typedPaths.push(...operands.slice(at))
      break
    }
    throw fatal(`ambiguous argument '${operand}': unknown revision or path not in the working tree.`)
  }
  if (revisions.length > 2) throw fatal('too many revisions for git diff (give at most two)')
  const specs = typedPaths.map((path) => repo.pathOf(path))
  const include = (path: string) => matchesPathspec(path, specs)
  let before: FileSet
  let after: FileSet
  if (revisions.length === 2) {
    before = await repo.treeFiles(revisions[0])
    after = await repo.treeFiles(revisions[1])
  } else if (options.has('cached')) {
    before = await repo.treeFiles(revisions[0] ?? (await repo.head()))
    after = await repo.indexFiles()
  } else {
    const index = await repo.indexFiles()
    before = revisions.length === 1 ? await repo.treeFiles(revisions[0]) : index
    after = await repo.workFiles([...new Set([...before.keys(), ...index.keys()])].filter(include))
  }
  const changes = await compare(before, after, include)
  if (!options.has('quiet')) context.out(formatChanges(changes, options))
  return (options.has('quiet') || options.has('exitCode')) && changes.length > 0 ? 1 : 0
}

/** `git rev-parse [--short] [--abbrev-ref] <revision>… | --show-toplevel | --git-dir | --is-inside-work-tree`. */
export async function revParse(context: GitContext, args: string[]): Promise<number> {
  const { options, operands } = parseArgs(args, {
    flags: {
      '--short': 'short', '--abbrev-ref': 'abbrevRef', '--verify': 'verify', '-q': 'quiet', '--quiet': 'quiet',
      '--show-toplevel': 'toplevel', '--git-dir': 'gitDir', '--is-inside-work-tree': 'inside',
    },
  })
  const repo = await Repo.open(context)
  if (options.has('toplevel')) context.out(`${repo.dir}\n`)
  if (options.has('gitDir')) context.out(`${repo.gitdir}\n`)
  if (options.has('inside')) context.out('true\n')
  for (const spec of operands) {
    if (options.has('abbrevRef') && spec === 'HEAD') {
      context.out(`${(await repo.headBranch()) ?? 'HEAD'}\n`)
      continue
    }
    const oid = await repo.revision(spec)
    if (!oid) {
      if (options.has('quiet')) return 1
      if (options.has('verify')) throw fatal('Needed a single revision')
      context.out(`${spec}\n`)
      throw fatal(
        `ambiguous argument '${spec}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`,
      )
    }
    context.out(`${options.has('short') ? short(oid) : options.has('abbrevRef') ? spec : oid}\n`)
  }
  return 0
}
