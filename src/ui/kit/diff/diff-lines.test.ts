import { describe, expect, it } from 'vitest'
import { describeTotals, parsePatch } from './diff-lines'
import { summarizeDiffs } from '../../../core/diff-summary'

const PATCH = [
  'Index: src/a.ts',
  '===================================================================',
  '--- src/a.ts',
  '+++ src/a.ts',
  '@@ -1,3 +1,3 @@',
  ' keep',
  '-old',
  '--- looks like a header but is a removed line',
  '+new',
  '++ an added line that starts with a plus',
  '\\ No newline at end of file',
  '',
].join('\n')

describe('parsing a unified patch', () => {
  it('classifies headers, hunks, context, additions and removals by the hunk counts', () => {
    expect(parsePatch(PATCH).map((line) => line.type)).toEqual([
      'meta',
      'meta',
      'meta',
      'meta',
      'hunk',
      'context',
      'removed',
      'removed',
      'added',
      'added',
      'meta',
    ])
  })

  it('keeps the text as written', () => {
    expect(parsePatch('@@ -1 +1 @@\n-a\n+b').map((line) => line.text)).toEqual(['@@ -1 +1 @@', '-a', '+b'])
  })

  it('starts a new file after the counted lines of a hunk', () => {
    const types = parsePatch('@@ -1 +1 @@\n-a\n+b\n--- b.ts\n+++ b.ts\n@@ -0,0 +1 @@\n+c').map((line) => line.type)
    expect(types).toEqual(['hunk', 'removed', 'added', 'meta', 'meta', 'hunk', 'added'])
  })
})

describe('totals', () => {
  it('adds up files, additions and deletions, and says them in words', () => {
    const totals = summarizeDiffs([
      { file: 'a', additions: 3, deletions: 1 },
      { file: 'b', additions: 1, deletions: 0 },
    ])
    expect(totals).toEqual({ files: 2, additions: 4, deletions: 1 })
    expect(describeTotals(totals)).toBe('2 files changed, 4 additions, 1 deletion')
  })
})
