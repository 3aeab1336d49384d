import { describe, expect, it } from 'vitest'
import { GREP_LIMIT, GREP_MAX_LINE_LENGTH, grepTool } from './grep'
import { makeToolContext } from './testing/tool-context'

/** A context whose files are written in order, so each is newer than the one before. */
async function contextWith(files: Array<[string, string]>) {
  const context = makeToolContext()
  for (const [path, content] of files) await context.workspace.writeFile(path, content)
  return context
}

describe('grep', () => {
  it('groups matches by file, newest file first, as "Line N: text"', async () => {
    const context = await contextWith([
      ['src/old.ts', 'const todo = 1\nconst done = 2\n// TODO: later\n'],
      ['src/new.ts', 'export function todo() {}\n'],
      ['README.md', 'nothing here\n'],
    ])
    const result = await grepTool.execute({ pattern: 'todo|TODO' }, context)
    expect(result.output).toBe(
      [
        'Found 3 matches',
        '/workspace/src/new.ts:',
        '  Line 1: export function todo() {}',
        '',
        '/workspace/src/old.ts:',
        '  Line 1: const todo = 1',
        '  Line 3: // TODO: later',
      ].join('\n'),
    )
    expect(result.title).toBe('todo|TODO')
    expect(result.metadata).toEqual({ matches: 3, truncated: false })
    expect(context.asks).toEqual([
      { permission: 'grep', patterns: ['todo|TODO'], always: ['*'], metadata: { pattern: 'todo|TODO', path: undefined, include: undefined } },
    ])
  })

  it('filters files with include and searches under path', async () => {
    const context = await contextWith([
      ['src/a.ts', 'needle\n'],
      ['src/a.md', 'needle\n'],
      ['lib/b.ts', 'needle\n'],
    ])
    const result = await grepTool.execute({ pattern: 'needle', path: 'src', include: '*.ts' }, context)
    expect(result.output).toBe('Found 1 matches\n/workspace/src/a.ts:\n  Line 1: needle')
  })

  it('searches a single file when path is one', async () => {
    const context = await contextWith([['a.txt', 'x\nneedle\n']])
    expect((await grepTool.execute({ pattern: 'needle', path: 'a.txt' }, context)).output).toBe('Found 1 matches\n/workspace/a.txt:\n  Line 2: needle')
  })

  it('shows at most the limit and says more matches exist', async () => {
    const context = await contextWith([['big.txt', 'match\n'.repeat(GREP_LIMIT + 50)]])
    const result = await grepTool.execute({ pattern: 'match' }, context)
    const lines = result.output.split('\n')
    expect(lines[0]).toBe(`Found ${GREP_LIMIT} matches (more matches available)`)
    expect(lines.filter((line) => line.startsWith('  Line '))).toHaveLength(GREP_LIMIT)
    expect(lines.at(-1)).toBe('(Results truncated. Consider using a more specific path or pattern.)')
    expect(result.metadata).toEqual({ matches: GREP_LIMIT, truncated: true })
  })

  it('cuts long lines', async () => {
    const context = await contextWith([['min.js', `var a="${'x'.repeat(3000)}"\n`]])
    const result = await grepTool.execute({ pattern: 'var a' }, context)
    const line = result.output.split('\n')[2]!
    expect(line).toBe(`  Line 1: ${`var a="${'x'.repeat(3000)}`.slice(0, GREP_MAX_LINE_LENGTH)}...`)
  })

  it('says when nothing matches', async () => {
    const context = await contextWith([['a.txt', 'hay\n']])
    const result = await grepTool.execute({ pattern: 'needle' }, context)
    expect(result).toEqual({ title: 'needle', output: 'No files found', metadata: { matches: 0, truncated: false } })
  })

  it('explains an invalid pattern or a missing path', async () => {
    const context = await contextWith([['a.txt', 'hay\n']])
    await expect(grepTool.execute({ pattern: 'a(' }, context)).rejects.toThrow('not a valid regular expression')
    await expect(grepTool.execute({ pattern: 'a', path: 'nope' }, context)).rejects.toThrow('Search path not found: nope')
  })
})
