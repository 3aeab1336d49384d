import { describe, expect, it } from 'vitest'
import { applyEdit, editTool } from './edit'
import { readTool } from './read'
import { DISPROPORTIONATE_MESSAGE, IDENTICAL_MESSAGE, MULTIPLE_MATCHES_MESSAGE, NOT_FOUND_MESSAGE } from './replace'
import { makeToolContext, type TestToolContext } from './testing/tool-context'

/** A context whose workspace has `files`, every one of them already read. */
async function readContext(files: Record<string, string>): Promise<TestToolContext> {
  const context = makeToolContext({ seed: files })
  for (const path of Object.keys(files)) await readTool.execute({ filePath: path }, context)
  context.asks.length = 0
  return context
}

interface EditCase {
  name: string
  file: string
  oldString: string
  newString: string
  replaceAll?: boolean
  expected: string
}

const cases: EditCase[] = [
  { name: 'an exact match', file: 'a\nb\nc\n', oldString: 'b', newString: 'B', expected: 'a\nB\nc\n' },
  {
    name: 'lines with other indentation (line-trimmed)',
    file: 'if (x) {\n  go()\n}\n',
    oldString: 'if (x) {\ngo()\n}',
    newString: 'if (x) {\n  stop()\n}',
    expected: 'if (x) {\n  stop()\n}\n',
  },
  {
    name: 'a block by its anchors (block-anchor)',
    file: 'function f() {\n  return 1 + 2\n}\n',
    oldString: 'function f() {\n  return 1 + 3\n}',
    newString: 'function f() {\n  return 3\n}',
    expected: 'function f() {\n  return 3\n}\n',
  },
  { name: 'collapsed whitespace (whitespace-normalized)', file: 'let  x  =  1\n', oldString: 'let x = 1', newString: 'let x = 2', expected: 'let x = 2\n' },
  { name: 'escaped newlines (escape-normalized)', file: 'one\ntwo\n', oldString: 'one\\ntwo', newString: 'three', expected: 'three\n' },
  { name: 'surrounding blank lines (trimmed-boundary)', file: 'p\nq\n', oldString: '\np\nq\n', newString: 'r', expected: 'r\n' },
  {
    name: 'half the middle lines exact (context-aware)',
    file: 'try {\n  a()\n  bbbbbbbbbbbb\n} finally {}\n',
    oldString: 'try {\n  a()\n  cccccccccccc\n} finally {}',
    newString: 'a()',
    expected: 'a()\n',
  },
  { name: 'every occurrence with replaceAll', file: 'x + x\nx\n', oldString: 'x', newString: 'y', replaceAll: true, expected: 'y + y\ny\n' },
  { name: 'CRLF kept, replacement included', file: 'a\r\nb\r\nc\r\n', oldString: 'b\nc', newString: 'B\nC\nD', expected: 'a\r\nB\r\nC\r\nD\r\n' },
  { name: 'mixed endings left as they are', file: 'a\r\nb\nc\r\n', oldString: 'c', newString: 'C', expected: 'a\r\nb\nC\r\n' },
  { name: 'a BOM kept', file: '\uFEFFfirst\nsecond\n', oldString: 'first', newString: 'one', expected: '\uFEFFone\nsecond\n' },
]

describe('edit', () => {
  it.each(cases)('replaces $name', async ({ file, oldString, newString, replaceAll, expected }) => {
    const context = await readContext({ '/workspace/f.ts': file })
    const result = await editTool.execute({ filePath: '/workspace/f.ts', oldString, newString, replaceAll }, context)
    expect(result.output).toBe('Edit applied successfully.')
    expect(await context.workspace.readText('/workspace/f.ts')).toBe(expected)
  })

  it.each([
    { name: 'several matches without replaceAll', file: 'x\nx\n', oldString: 'x', message: MULTIPLE_MATCHES_MESSAGE },
    { name: 'a missing oldString', file: 'x\n', oldString: 'y', message: NOT_FOUND_MESSAGE },
    { name: 'an oversized match', file: `f() {\n  a\n  b\n  ${'z'.repeat(2_000)}\n}\n`, oldString: 'f() {\n  a\n  b\n  c\n}', message: DISPROPORTIONATE_MESSAGE },
  ])('refuses $name, leaving the file alone', async ({ file, oldString, message }) => {
    const context = await readContext({ '/workspace/f.ts': file })
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString, newString: 'new' }, context)).rejects.toThrow(message)
    expect(await context.workspace.readText('/workspace/f.ts')).toBe(file)
    expect(context.asks).toEqual([])
  })

  it('refuses identical strings', async () => {
    const context = await readContext({ '/workspace/f.ts': 'x' })
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString: 'x', newString: 'x' }, context)).rejects.toThrow(IDENTICAL_MESSAGE)
  })

  it('refuses a file never read', async () => {
    const context = makeToolContext({ seed: { 'f.ts': 'x' } })
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString: 'x', newString: 'y' }, context)).rejects.toThrow(
      'You must read file /workspace/f.ts before overwriting it. Use the read tool first',
    )
  })

  it('refuses a file changed since it was read, then edits once it is read again', async () => {
    const context = await readContext({ '/workspace/f.ts': 'x = 1\n' })
    await context.workspace.writeFile('/workspace/f.ts', 'x = 2\n')
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString: 'x = 2', newString: 'x = 3' }, context)).rejects.toThrow(
      /File \/workspace\/f.ts has been modified since it was last read[\s\S]*Please read the file again before modifying it\./,
    )
    await readTool.execute({ filePath: '/workspace/f.ts' }, context)
    await editTool.execute({ filePath: '/workspace/f.ts', oldString: 'x = 2', newString: 'x = 3' }, context)
    // Its own write counts as read: a second edit needs no new read.
    await editTool.execute({ filePath: '/workspace/f.ts', oldString: 'x = 3', newString: 'x = 4' }, context)
    expect(await context.workspace.readText('/workspace/f.ts')).toBe('x = 4\n')
  })

  it('asks edit with the relative path and a diff, and returns the diff stats', async () => {
    const context = await readContext({ '/workspace/src/f.ts': '    a()\n    b()\n    c()\n' })
    const result = await editTool.execute({ filePath: '/workspace/src/f.ts', oldString: 'b()', newString: 'b1()\n    b2()' }, context)
    const diff = [
      'Index: /workspace/src/f.ts',
      '='.repeat(67),
      '--- /workspace/src/f.ts',
      '+++ /workspace/src/f.ts',
      '@@ -1,3 +1,4 @@',
      ' a()',
      '-b()',
      '+b1()',
      '+b2()',
      ' c()',
      '',
    ].join('\n')
    expect(context.asks).toEqual([{ permission: 'edit', patterns: ['src/f.ts'], always: ['*'], metadata: { filepath: '/workspace/src/f.ts', diff } }])
    expect(result).toEqual({
      title: 'src/f.ts',
      output: 'Edit applied successfully.',
      metadata: { diff, filediff: { file: '/workspace/src/f.ts', patch: diff, additions: 2, deletions: 1 } },
    })
  })

  it('creates a file from an empty oldString, and replaces a read file with one', async () => {
    const context = makeToolContext()
    await editTool.execute({ filePath: '/workspace/new/f.ts', oldString: '', newString: 'hello\n' }, context)
    expect(await context.workspace.readText('/workspace/new/f.ts')).toBe('hello\n')
    await editTool.execute({ filePath: '/workspace/new/f.ts', oldString: '', newString: 'bye\n' }, context)
    expect(await context.workspace.readText('/workspace/new/f.ts')).toBe('bye\n')
  })

  it('says a missing file is missing', async () => {
    const context = makeToolContext()
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString: 'a', newString: 'b' }, context)).rejects.toThrow(
      /^File \/workspace\/f.ts not found/,
    )
  })

  it('does not write when the user refuses', async () => {
    const context = makeToolContext({
      seed: { 'f.ts': 'a' },
      answer: (request) => {
        if (request.permission === 'edit') throw new Error('rejected')
      },
    })
    await readTool.execute({ filePath: '/workspace/f.ts' }, context)
    await expect(editTool.execute({ filePath: '/workspace/f.ts', oldString: 'a', newString: 'b' }, context)).rejects.toThrow('rejected')
    expect(await context.workspace.readText('/workspace/f.ts')).toBe('a')
  })

  it('applies parallel edits of one file one after the other', async () => {
    const context = await readContext({ '/workspace/f.ts': 'a\nb\n' })
    await Promise.all([
      editTool.execute({ filePath: '/workspace/f.ts', oldString: 'a', newString: 'A' }, context),
      editTool.execute({ filePath: '/workspace/f.ts', oldString: 'b', newString: 'B' }, context),
    ])
    expect(await context.workspace.readText('/workspace/f.ts')).toBe('A\nB\n')
  })
})

describe('applyEdit', () => {
  it('matches LF strings against a CRLF file and writes CRLF back', () => {
    expect(applyEdit('x\r\ny\r\n', 'x\ny', 'z')).toBe('z\r\n')
    expect(applyEdit('x\ny\n', 'x\r\ny', 'z\r\nw')).toBe('z\nw\n')
  })
})
