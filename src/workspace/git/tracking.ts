import * as git from 'isomorphic-git'
import type { Repo } from './repo'

// Where a branch stands against the branch it tracks, for status and branch listings.

/** The branch a local branch tracks (`origin`, `main`), from `branch.<name>.remote` and `.merge`. */
export async function upstreamOf(repo: Repo, branch: string): Promise<{ remote: string; branch: string } | undefined> {
  const remoteName = await repo.config(`branch.${branch}.remote`)
  const merge = await repo.config(`branch.${branch}.merge`)
  if (!remoteName || !merge) return undefined
  return { remote: remoteName, branch: merge.replace(/^refs\/heads\//, '') }
}

/** How far a branch and its upstream have moved apart: commits only on each side. */
export async function aheadBehind(repo: Repo, oid: string, upstream: string): Promise<{ ahead: number; behind: number }> {
  if (oid === upstream) return { ahead: 0, behind: 0 }
  const reach = async (ref: string) => new Set((await git.log({ ...repo.base, ref })).map((entry) => entry.oid))
  const [mine, theirs] = await Promise.all([reach(oid), reach(upstream)])
  let ahead = 0
  let behind = 0
  for (const commit of mine) if (!theirs.has(commit)) ahead++
  for (const commit of theirs) if (!mine.has(commit)) behind++
  return { ahead, behind }
}

/** The lines `git status` prints under "On branch" about the upstream (and the blank line after), or '' without one. */
export async function trackingStatus(repo: Repo, branch: string): Promise<string> {
  const lines = await trackingLines(repo, branch)
  return lines ? `${lines}\n` : ''
}

async function trackingLines(repo: Repo, branch: string): Promise<string> {
  const upstream = await upstreamOf(repo, branch)
  if (!upstream) return ''
  const name = `${upstream.remote}/${upstream.branch}`
  const theirs = await git.resolveRef({ ...repo.base, ref: `refs/remotes/${name}` }).catch(() => undefined)
  if (!theirs) return `Your branch is based on '${name}', but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)\n`
  const head = await repo.head()
  if (!head) return ''
  const { ahead, behind } = await aheadBehind(repo, head, theirs)
  const commits = (count: number) => `${count} commit${count === 1 ? '' : 's'}`
  if (ahead === 0 && behind === 0) return `Your branch is up to date with '${name}'.\n`
  if (behind === 0) return `Your branch is ahead of '${name}' by ${commits(ahead)}.\n  (use "git push" to publish your local commits)\n`
  if (ahead === 0) {
    return `Your branch is behind '${name}' by ${commits(behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)\n`
  }
  return (
    `Your branch and '${name}' have diverged,\nand have ${ahead} and ${behind} different commits each, respectively.\n` +
    '  (use "git pull" to merge the remote branch into yours)\n'
  )
}

/** `git status -sb`'s first line: `## main...origin/main [ahead 1, behind 2]`. */
export async function shortBranchLine(repo: Repo): Promise<string> {
  const branch = await repo.headBranch()
  if (!branch) return '## HEAD (no branch)\n'
  const upstream = await upstreamOf(repo, branch)
  const head = await repo.head()
  if (!upstream) return head ? `## ${branch}\n` : `## No commits yet on ${branch}\n`
  const name = `${upstream.remote}/${upstream.branch}`
  const theirs = await git.resolveRef({ ...repo.base, ref: `refs/remotes/${name}` }).catch(() => undefined)
  if (!theirs) return `## ${branch}...${name} [gone]\n`
  if (!head) return `## No commits yet on ${branch}...${name}\n`
  const { ahead, behind } = await aheadBehind(repo, head, theirs)
  const counts = [ahead ? `ahead ${ahead}` : '', behind ? `behind ${behind}` : ''].filter(Boolean).join(', ')
  return `## ${branch}...${name}${counts ? ` [${counts}]` : ''}\n`
}
