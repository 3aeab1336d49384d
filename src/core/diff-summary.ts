import type { FileDiff } from './schema'

/** How much a set of file changes adds and removes: a session's or message's `summary`, and the Changes view's totals. */
export interface DiffSummary {
  files: number
  additions: number
  deletions: number
}

export function summarizeDiffs(diffs: readonly FileDiff[]): DiffSummary {
  let additions = 0
  let deletions = 0
  for (const diff of diffs) {
    additions += diff.additions
    deletions += diff.deletions
  }
  return { files: diffs.length, additions, deletions }
}
