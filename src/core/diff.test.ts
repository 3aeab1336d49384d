import { describe, expect, it } from 'vitest'
import { diffLines, lineChangeCounts, pairChangedLines, splitLines, toolFileDiff, trimDiff, unifiedDiff, wordDiff } from './diff'

const numbered = (count: number, change: Record<number, string> = {}) =>
  Array.from({ length: count }, (_, index) => `${change[index + 1] ?? `line ${index + 1}`}\n`).join('')

describe('splitLines', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a\n']],
    ['a\nb', ['a\n', 'b']],
    ['a\r\nb\r\n', ['a\r\n', 'b\r\n']],
    ['\n\n', ['\n', '\n']],
  ])('%j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines)
  })
})

describe('unifiedDiff', () => {
  it.each<[string, string | undefined, string | undefined, string, number, number]>([
    ['a changed line', 'a\nb\nc\n', 'a\nB\nc\n', '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n', 1, 1],
    ['a line added at the start', 'a\n', 'x\na\n', '@@ -1 +1,2 @@\n+x\n a\n', 1, 0],
    ['a line appended', 'a\nb\n', 'a\nb\nc\n', '@@ -1,2 +1,3 @@\n a\n b\n+c\n', 1, 0],
    ['a line removed', 'a\nb\nc\n', 'a\nc\n', '@@ -1,3 +1,2 @@\n a\n-b\n c\n', 0, 1],
    ['final newline added', 'a\nb', 'a\nb\n', '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n', 1, 1],
    ['final newline removed', 'a\nb\n', 'a\nb', '@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n', 1, 1],
    ['an edit with no final newline on either side', 'a\nb', 'a\nc', '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n', 1, 1],
    ['a CRLF line changed', 'a\r\nb\r\n', 'a\r\nc\r\n', '@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n', 1, 1],
    ['CRLF turned into LF', 'a\r\nb\r\n', 'a\nb\n', '@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n', 2, 2],
    ['every line replaced', 'a\nb\n', 'c\nd\n', '@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\n', 2, 2],
    ['emptied', 'a\n', '', '@@ -1 +0,0 @@\n-a\n', 0, 1],
  ])('%s', (_, before, after, hunks, additions, deletions) => {
    const diff = unifiedDiff({ file: 'src/f.txt', before, after })
    expect(diff.patch).toBe(`--- a/src/f.txt\n+++ b/src/f.txt\n${hunks}`)
    expect(diff).toMatchObject({ additions, deletions })
  })

  it('writes an added file against /dev/null', () => {
    expect(unifiedDiff({ file: 'n.txt', before: undefined, after: 'x\ny\n' })).toEqual({
      patch: '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n',
      additions: 2,
      deletions: 0,
    })
  })

  it('writes a deleted file against /dev/null', () => {
    expect(unifiedDiff({ file: 'n.txt', before: 'x\ny', after: undefined })).toEqual({
      patch: '--- a/n.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n\\ No newline at end of file\n',
      additions: 0,
      deletions: 2,
    })
  })

  it('writes only the header for an added empty file', () => {
    expect(unifiedDiff({ file: 'e', before: undefined, after: '' })).toEqual({ patch: '--- /dev/null\n+++ b/e\n', additions: 0, deletions: 0 })
  })

  it('splits distant changes into hunks with three lines of context', () => {
    const diff = unifiedDiff({ file: 'f', before: numbered(20), after: numbered(20, { 2: 'two', 18: 'eighteen' }) })
    expect(diff.patch).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -1,5 +1,5 @@',
        ' line 1',
        '-line 2',
        '+two',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -15,6 +15,6 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        '+eighteen',
        ' line 19',
        ' line 20',
        '',
      ].join('\n'),
    )
  })

  it('joins changes whose contexts touch into one hunk', () => {
    const diff = unifiedDiff({ file: 'f', before: numbered(12), after: numbered(12, { 3: 'three', 9: 'nine' }) })
    expect(diff.patch.match(/^@@.*$/gm)).toEqual(['@@ -1,12 +1,12 @@'])
  })

  it('stays correct, if not minimal, past the edit cap', () => {
    const before = 'a\nb\nc\nd\ne\n'
    const after = 'a\nx\nc\ny\ne\n'
    const ops = diffLines(before, after, 1)
    expect(ops.filter((op) => op.type !== 'insert').map((op) => op.line)).toEqual(splitLines(before))
    expect(ops.filter((op) => op.type !== 'delete').map((op) => op.line)).toEqual(splitLines(after))
    expect(ops.map((op) => op.type)).toEqual(['equal', 'delete', 'delete', 'delete', 'insert', 'insert', 'insert', 'equal'])
    expect(diffLines(before, after).filter((op) => op.type === 'delete')).toHaveLength(2)
  })
})

describe('diffLines', () => {
  it('finds a shortest edit script', () => {
    const ops = diffLines('a\nb\nc\na\nb\nb\na\n', 'c\nb\na\nb\na\nc\n')
    // Myers' paper example: edit distance 5.
    expect(ops.filter((op) => op.type !== 'equal')).toHaveLength(5)
  })
})

describe('lineChangeCounts', () => {
  it('counts added and removed lines without an edit script', () => {
    expect(lineChangeCounts(splitLines('a\nb\nc\nd\n'), splitLines('a\nc\nx\ny\nd\n'))).toEqual({ additions: 2, deletions: 1 })
  })
})

const TOOL_HEADER = ['Index: a.txt', '='.repeat(67), '--- a.txt', '+++ a.txt']
const stats = (before: string, after: string) => {
  const { additions, deletions } = toolFileDiff('a.txt', before, after)
  return { additions, deletions }
}

describe('toolFileDiff', () => {
  it('shows a change with three lines of context, headed like jsdiff', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n'
    const after = 'one\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\n'
    expect(toolFileDiff('a.txt', before, after)).toEqual({
      file: 'a.txt',
      patch: [...TOOL_HEADER, '@@ -2,7 +2,7 @@', ' two', ' three', ' four', '-five', '+FIVE', ' six', ' seven', ' eight', ''].join('\n'),
      additions: 1,
      deletions: 1,
    })
  })

  it('numbers a new file from -0,0 and marks a missing final newline', () => {
    expect(toolFileDiff('a.txt', '', 'x\ny').patch).toBe([...TOOL_HEADER, '@@ -0,0 +1,2 @@', '+x', '+y', '\\ No newline at end of file', ''].join('\n'))
  })

  it('splits distant changes into hunks and merges near ones', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`)
    const changed = lines.map((line, index) => (index === 1 || index === 17 ? line.toUpperCase() : line))
    const diff = toolFileDiff('a.txt', lines.join('\n') + '\n', changed.join('\n') + '\n').patch
    expect(diff.match(/^@@.*@@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -15,6 +15,6 @@'])
    const near = lines.map((line, index) => (index === 4 || index === 10 ? 'x' : line))
    expect(toolFileDiff('a.txt', lines.join('\n') + '\n', near.join('\n') + '\n').patch.match(/^@@.*@@$/gm)).toEqual(['@@ -2,13 +2,13 @@'])
  })

  it('counts added and removed lines', () => {
    expect(stats('a\nb\nc\n', 'a\nc\nd\ne\n')).toEqual({ additions: 2, deletions: 1 })
    expect(stats('same\n', 'same\n')).toEqual({ additions: 0, deletions: 0 })
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
      expect(stats(before, after)).toEqual({ additions: b.length - common, deletions: a.length - common })
    }
  })

  it('falls back to remove-all/add-all when the texts share nothing, and stays correct', () => {
    const before = Array.from({ length: 3_000 }, (_, index) => `a${index}`).join('\n')
    const after = Array.from({ length: 3_000 }, (_, index) => `b${index}`).join('\n')
    expect(stats(before, after)).toEqual({ additions: 3_000, deletions: 3_000 })
  })

  it('trims the indentation all changed and context lines share', () => {
    expect(trimDiff('--- a\n+++ a\n@@ -1,2 +1,2 @@\n     keep\n-    old\n+    new')).toBe('--- a\n+++ a\n@@ -1,2 +1,2 @@\n keep\n-old\n+new')
  })

  it('ignores line endings and a BOM in the diff of a file', () => {
    expect(toolFileDiff('a.txt', '\uFEFFa\r\nb\r\n', '\uFEFFa\r\nc\r\n')).toMatchObject({ additions: 1, deletions: 1, patch: expect.stringContaining('-b\n+c') })
  })
})

describe('wordDiff', () => {
  it('marks only the words that changed, spaces kept', () => {
    expect(wordDiff('const total = price * 2;', 'const total = price * 3;')).toEqual({
      removed: [
        { text: 'const total = price * ', changed: false },
        { text: '2', changed: true },
        { text: ';', changed: false },
      ],
      added: [
        { text: 'const total = price * ', changed: false },
        { text: '3', changed: true },
        { text: ';', changed: false },
      ],
    })
  })

  it('marks a change of spacing', () => {
    expect(wordDiff('a  b', 'a b')?.added).toEqual([
      { text: 'a', changed: false },
      { text: ' ', changed: true },
      { text: 'b', changed: false },
    ])
  })

  it('marks nothing when the lines share no word', () => {
    expect(wordDiff('alpha beta', 'gamma delta')).toBeUndefined()
  })
})

describe('pairChangedLines', () => {
  it('pairs removals with the additions that follow them, first with first', () => {
    expect(pairChangedLines(['hunk', 'context', 'removed', 'removed', 'added', 'context', 'removed', 'added', 'added', 'added'])).toEqual([
      [2, 4],
      [6, 7],
    ])
  })

  it('pairs nothing for pure additions or removals', () => {
    expect(pairChangedLines(['added', 'added', 'context', 'removed', 'context'])).toEqual([])
  })
})
