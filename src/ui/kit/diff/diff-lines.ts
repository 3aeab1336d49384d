import type { DiffSummary } from '../../../core/diff-summary'
import { formatNumber } from '../format/number'

export type DiffLineType = 'added' | 'removed' | 'context' | 'hunk' | 'meta'

export interface DiffLine {
  type: DiffLineType
  text: string
}

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/

/**
 * Classifies the lines of a unified patch; the text stays as written, `+`, `-` and `@@` included. Hunk headers
 * say how many lines follow, so a removed line that happens to read `--- a/x` is not taken for a file header.
 */
export function parsePatch(patch: string): DiffLine[] {
  const lines = patch.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  // Lines still expected in the current hunk, on the old and new side; Infinity when its header gave no counts.
  let before = 0
  let after = 0
  return lines.map((text): DiffLine => {
    if (text.startsWith('\\')) return { type: 'meta', text }
    if (before > 0 || after > 0) {
      if (text.startsWith('+')) {
        after--
        return { type: 'added', text }
      }
      if (text.startsWith('-')) {
        before--
        return { type: 'removed', text }
      }
      if (text.startsWith(' ') || text === '') {
        before--
        after--
        return { type: 'context', text }
      }
    }
    const header = HUNK_HEADER.exec(text)
    if (header) {
      before = header[1] === undefined ? 1 : Number(header[1])
      after = header[2] === undefined ? 1 : Number(header[2])
      return { type: 'hunk', text }
    }
    // A hunk header without line counts (hand-written patches): everything up to the next header belongs to it.
    const loose = text.startsWith('@@')
    before = loose ? Infinity : 0
    after = loose ? Infinity : 0
    return { type: loose ? 'hunk' : 'meta', text }
  })
}

export function describeTotals(totals: DiffSummary): string {
  const files = `${formatNumber(totals.files)} ${totals.files === 1 ? 'file' : 'files'} changed`
  return `${files}, ${formatNumber(totals.additions)} ${totals.additions === 1 ? 'addition' : 'additions'}, ${formatNumber(totals.deletions)} ${totals.deletions === 1 ? 'deletion' : 'deletions'}`
}
