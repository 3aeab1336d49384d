import { describe, expect, it } from 'vitest'
import { diffLines, lineChangeCounts, splitLines, unifiedDiff } from './line-diff'

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
    const before = splitLines('a\nb\nc\nd\ne\n')
    const after = splitLines('a\nx\nc\ny\ne\n')
    const ops = diffLines(before, after, 1)
    expect(ops.filter((op) => op.type !== 'insert').map((op) => op.line)).toEqual(before)
    expect(ops.filter((op) => op.type !== 'delete').map((op) => op.line)).toEqual(after)
    expect(ops.map((op) => op.type)).toEqual(['equal', 'delete', 'delete', 'delete', 'insert', 'insert', 'insert', 'equal'])
    expect(diffLines(before, after).filter((op) => op.type === 'delete')).toHaveLength(2)
  })
})

describe('diffLines', () => {
  it('finds a shortest edit script', () => {
    const ops = diffLines(splitLines('a\nb\nc\na\nb\nb\na\n'), splitLines('c\nb\na\nb\na\nc\n'))
    // Myers' paper example: edit distance 5.
    expect(ops.filter((op) => op.type !== 'equal')).toHaveLength(5)
  })
})

describe('lineChangeCounts', () => {
  it('counts added and removed lines without an edit script', () => {
    expect(lineChangeCounts(splitLines('a\nb\nc\nd\n'), splitLines('a\nc\nx\ny\nd\n'))).toEqual({ additions: 2, deletions: 1 })
  })
})
