import * as git from 'isomorphic-git'
import { matchesPathspec, short, type Repo } from './repo'
import { trackingStatus } from './tracking'

/** A path's state as `git status --short` codes it: `X` the index against HEAD, `Y` the working tree against the index. */
export interface StatusEntry {
  path: string
  index: ' ' | 'A' | 'M' | 'D' | 'R'
  work: ' ' | 'M' | 'D'
  /** For a rename (`R`): the path it had in HEAD. */
  from?: string
}

export interface RepoStatus {
  entries: StatusEntry[]
  /** Untracked files, a wholly untracked directory as one `dir/` entry, as git shows them by default. */
  untracked: string[]
}

/** Reads isomorphic-git's status matrix ([path, HEAD, WORKDIR, STAGE]) into git's two status columns. */
export async function readStatus(repo: Repo, pathspecs: readonly string[] = []): Promise<RepoStatus> {
  const matrix = await git.statusMatrix({ ...repo.base })
  const entries: StatusEntry[] = []
  const untrackedFiles: string[] = []
  const tracked: string[] = []
  for (const [path, head, work, stage] of matrix) {
    if (head === 1 || stage !== 0) tracked.push(path)
    if (!matchesPathspec(path, pathspecs)) continue
    if (stage === 0 && (head === 0 || work !== 0)) untrackedFiles.push(path)
    if (head === 0 && stage === 0) continue
    const index = head === 0 ? 'A' : stage === 0 ? 'D' : stage === 1 ? ' ' : 'M'
    const changed = stage === 0 ? ' ' : work === 0 ? 'D' : stage === 2 ? ' ' : stage === 1 ? (work === 2 ? 'M' : ' ') : 'M'
    if (index !== ' ' || changed !== ' ') entries.push({ path, index, work: changed })
  }
  return { entries: await findRenames(repo, entries), untracked: collapseUntracked(untrackedFiles, tracked) }
}

/** A staged deletion and a staged new file with the same content are one rename, as `git mv` makes. */
async function findRenames(repo: Repo, entries: StatusEntry[]): Promise<StatusEntry[]> {
  const deleted = entries.filter((entry) => entry.index === 'D')
  const added = entries.filter((entry) => entry.index === 'A')
  if (deleted.length === 0 || added.length === 0) return entries
  const [head, index] = await Promise.all([repo.treeFiles(await repo.head()), repo.indexFiles()])
  const gone = new Set<StatusEntry>()
  for (const entry of added) {
    const source = deleted.find((old) => !gone.has(old) && head.get(old.path)?.oid === index.get(entry.path)?.oid)
    if (!source) continue
    gone.add(source)
    entry.index = 'R'
    entry.from = source.path
  }
  return entries.filter((entry) => !gone.has(entry))
}

/** An untracked file shown by its outermost directory that holds nothing tracked. */
function collapseUntracked(files: readonly string[], tracked: readonly string[]): string[] {
  const trackedDirectories = new Set<string>()
  for (const path of tracked) {
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) trackedDirectories.add(path.slice(0, at))
  }
  const shown = new Set<string>()
  for (const path of files) {
    let entry = path
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      const directory = path.slice(0, at)
      if (!trackedDirectories.has(directory)) {
        entry = `${directory}/`
        break
      }
    }
    shown.add(entry)
  }
  return [...shown].sort()
}

const LABELS = { A: 'new file:   ', M: 'modified:   ', D: 'deleted:    ', R: 'renamed:    ' } as const

/** The long form of `git status`. */
export async function formatLongStatus(repo: Repo, status: RepoStatus): Promise<string> {
  const head = await repo.head()
  const branch = await repo.headBranch()
  let text = branch ? `On branch ${branch}\n${await trackingStatus(repo, branch)}` : `HEAD detached at ${short(head ?? '')}\n`
  if (!head) text += '\nNo commits yet\n\n'
  const staged = status.entries.filter((entry) => entry.index !== ' ')
  const unstaged = status.entries.filter((entry) => entry.work !== ' ')
  if (staged.length > 0) {
    text += 'Changes to be committed:\n'
    text += head ? '  (use "git restore --staged <file>..." to unstage)\n' : '  (use "git rm --cached <file>..." to unstage)\n'
    for (const entry of staged) {
      const from = entry.from === undefined ? '' : `${repo.shown(entry.from)} -> `
      text += `\t${LABELS[entry.index as 'A' | 'M' | 'D' | 'R']}${from}${repo.shown(entry.path)}\n`
    }
    text += '\n'
  }
  if (unstaged.length > 0) {
    text += 'Changes not staged for commit:\n'
    const deletions = unstaged.some((entry) => entry.work === 'D')
    text += `  (use "git ${deletions ? 'add/rm' : 'add'} <file>..." to update what will be committed)\n`
    text += '  (use "git restore <file>..." to discard changes in working directory)\n'
    for (const entry of unstaged) text += `\t${LABELS[entry.work as 'M' | 'D']}${repo.shown(entry.path)}\n`
    text += '\n'
  }
  if (status.untracked.length > 0) {
    text += 'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n'
    for (const path of status.untracked) text += `\t${shownUntracked(repo, path)}\n`
    text += '\n'
  }
  if (staged.length > 0) return text
  if (unstaged.length > 0) return `${text}no changes added to commit (use "git add" and/or "git commit -a")\n`
  if (status.untracked.length > 0) return `${text}nothing added to commit but untracked files present (use "git add" to track)\n`
  if (!head) return `${text}nothing to commit (create/copy files and use "git add" to track)\n`
  return `${text}nothing to commit, working tree clean\n`
}

function shownUntracked(repo: Repo, path: string): string {
  return path.endsWith('/') ? `${repo.shown(path.slice(0, -1))}/` : repo.shown(path)
}

/** `git status --short` (paths from the working directory) or `--porcelain` (paths from the repository root). */
export function formatShortStatus(repo: Repo, status: RepoStatus, porcelain: boolean): string {
  const show = (path: string) => (porcelain ? path : path.endsWith('/') ? `${repo.shown(path.slice(0, -1))}/` : repo.shown(path))
  const lines = status.entries.map((entry) => {
    const from = entry.from === undefined ? '' : `${show(entry.from)} -> `
    return `${entry.index}${entry.work} ${from}${show(entry.path)}\n`
  })
  for (const path of status.untracked) lines.push(`?? ${show(path)}\n`)
  return lines.join('')
}
