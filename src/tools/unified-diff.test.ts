import { describe, expect, it } from 'vitest'
import { diffStats, fileDiff, trimDiff, unifiedDiff } from './unified-diff'

const HEADER = ['Index: a.txt', '='.repeat(67), '--- a.txt', '+++ a.txt']

describe('unifiedDiff', () => {
  it('shows a change with three lines of context, numbered like jsdiff', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n'
    const after = 'one\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\n'
    expect(unifiedDiff('a.txt', before, after)).toBe(
      [...HEADER, '@@ -2,7 +2,7 @@', ' two', ' three', ' four', '-five', '+FIVE', ' six', ' seven', ' eight', ''].join('\n'),
    )
  })

  it('numbers a new file from -0,0 and marks a missing final newline', () => {
    expect(unifiedDiff('a.txt', '', 'x\ny')).toBe([...HEADER, '@@ -0,0 +1,2 @@', '+x', '+y', '\\ No newline at end of file', ''].join('\n'))
  })

  it('splits distant changes into hunks and merges near ones', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`)
    const changed = lines.map((line, index) => (index === 1 || index === 17 ? line.toUpperCase() : line))
    const diff = unifiedDiff('a.txt', lines.join('\n') + '\n', changed.join('\n') + '\n')
    expect(diff.match(/^@@.*@@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -15,6 +15,6 @@'])
    const near = lines.map((line, index) => (index === 4 || index === 10 ? 'x' : line))
    expect(unifiedDiff('a.txt', lines.join('\n') + '\n', near.join('\n') + '\n').match(/^@@.*@@$/gm)).toEqual(['@@ -2,13 +2,13 @@'])
  })

  it('counts added and removed lines', () => {
    expect(diffStats('a\nb\nc\n', 'a\nc\nd\ne\n')).toEqual({ additions: 2, deletions: 1 })
    expect(diffStats('same\n', 'same\n')).toEqual({ additions: 0, deletions: 0 })
  })

  it('finds a shortest edit script (checked against a longest common subsequence)', () => {
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const text = () => Array.from({ length: Math.floor(random() * 12) }, () => 'abc'[Math.floor(random() * 3)]).join('\n') + '\n'
    for (let round = 0; round < 200; round++) {
      const before = text()
      const after = text()
      const a = before.split('\n').slice(0, -1)
      const b = after.split('\n').slice(0, -1)
      const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) lcs[i]![j] = a[i - 1] === b[j - 1] ? lcs[i - 1]![j - 1]! + 1 : Math.max(lcs[i - 1]![j]!, lcs[i]![j - 1]!)
      }
      const common = lcs[a.length]![b.length]!
      expect(diffStats(before, after)).toEqual({ additions: b.length - common, deletions: a.length - common })
    }
  })

  it('falls back to remove-all/add-all when the texts share nothing, and stays correct', () => {
    const before = Array.from({ length: 3_000 }, (_, index) => `a${index}`).join('\n')
    const after = Array.from({ length: 3_000 }, (_, index) => `b${index}`).join('\n')
    expect(diffStats(before, after)).toEqual({ additions: 3_000, deletions: 3_000 })
  })

  it('trims the indentation all changed and context lines share', () => {
    expect(trimDiff('--- a\n+++ a\n@@ -1,2 +1,2 @@\n     keep\n-    old\n+    new')).toBe('--- a\n+++ a\n@@ -1,2 +1,2 @@\n keep\n-old\n+new')
  })

  it('ignores line endings and a BOM in the diff of a file', () => {
    expect(fileDiff('a.txt', '\uFEFFa\r\nb\r\n', '\uFEFFa\r\nc\r\n')).toMatchObject({ additions: 1, deletions: 1, patch: expect.stringContaining('-b\n+c') })
  })
})
