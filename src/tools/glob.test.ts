import { describe, expect, it } from 'vitest'
import { GLOB_LIMIT, globTool } from './glob'
import { makeToolContext } from './testing/tool-context'

/** A context whose files are written one after another, so each is newer than the one before. */
async function contextWith(paths: string[]) {
  const context = makeToolContext()
  for (const path of paths) await context.workspace.writeFile(path, `// ${path}\n`)
  return context
}

describe('glob', () => {
  it('lists matching files as absolute paths, newest first', async () => {
    const context = await contextWith(['src/old.ts', 'README.md', 'src/deep/new.ts', 'src/newest.tsx'])
    const result = await globTool.execute({ pattern: '**/*.ts' }, context)
    expect(result.output).toBe('/workspace/src/deep/new.ts\n/workspace/src/old.ts')
    expect(result.title).toBe('.')
    expect(result.metadata).toEqual({ count: 2, truncated: false })
  })

  it('asks glob permission with the pattern', async () => {
    const context = await contextWith(['a.ts'])
    await globTool.execute({ pattern: '*.ts', path: 'src/..' }, context)
    expect(context.asks).toEqual([{ permission: 'glob', patterns: ['*.ts'], always: ['*'], metadata: { pattern: '*.ts', path: 'src/..' } }])
  })

  it('searches under the given directory, relative to the project', async () => {
    const context = await contextWith(['a.ts', 'src/b.ts'])
    const result = await globTool.execute({ pattern: '*.ts', path: 'src' }, context)
    expect(result.output).toBe('/workspace/src/b.ts')
    expect(result.title).toBe('src')
  })

  it('stops at the limit and says the results are truncated', async () => {
    const context = await contextWith(Array.from({ length: GLOB_LIMIT + 20 }, (_, index) => `f${index}.ts`))
    const result = await globTool.execute({ pattern: '*.ts' }, context)
    const lines = result.output.split('\n')
    expect(lines).toHaveLength(GLOB_LIMIT + 2)
    expect(lines[0]).toBe(`/workspace/f${GLOB_LIMIT + 19}.ts`)
    expect(lines.slice(-2)).toEqual(['', '(Results are truncated. Consider using a more specific path or pattern.)'])
    expect(result.metadata).toEqual({ count: GLOB_LIMIT, truncated: true })
  })

  it('adds no note when exactly the limit matches', async () => {
    const context = await contextWith(Array.from({ length: GLOB_LIMIT }, (_, index) => `f${index}.ts`))
    const result = await globTool.execute({ pattern: '*.ts' }, context)
    expect(result.output.split('\n')).toHaveLength(GLOB_LIMIT)
    expect(result.metadata).toEqual({ count: GLOB_LIMIT, truncated: false })
  })

  it('says when nothing matches', async () => {
    const context = await contextWith(['a.ts'])
    expect((await globTool.execute({ pattern: '*.py' }, context)).output).toBe('No files found')
  })

  it('refuses a path that is missing or a file', async () => {
    const context = await contextWith(['a.ts'])
    await expect(globTool.execute({ pattern: '*', path: 'nope' }, context)).rejects.toThrow('Directory not found: /workspace/nope')
    await expect(globTool.execute({ pattern: '*', path: 'a.ts' }, context)).rejects.toThrow('must be a directory')
  })

  it('asks external_directory before searching outside the project', async () => {
    const context = makeToolContext({
      answer: (request) => {
        if (request.permission === 'external_directory') throw new Error('rejected')
      },
    })
    await expect(globTool.execute({ pattern: '*', path: '/etc' }, context)).rejects.toThrow('rejected')
    expect(context.asks.map((ask) => [ask.permission, ask.patterns])).toEqual([
      ['glob', ['*']],
      ['external_directory', ['/etc/*']],
    ])
  })
})
