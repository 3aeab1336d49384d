import { describe, expect, it } from 'vitest'
import { readTool } from './read'
import { makeToolContext } from './testing/tool-context'
import { writeTool } from './write'

describe('write', () => {
  it('creates a file and its directories, asking edit with a diff', async () => {
    const context = makeToolContext()
    const result = await writeTool.execute({ filePath: '/workspace/src/deep/new.ts', content: 'export const a = 1\n' }, context)
    expect(await context.workspace.readText('/workspace/src/deep/new.ts')).toBe('export const a = 1\n')
    expect((await context.workspace.stat('/workspace/src/deep'))?.type).toBe('directory')
    expect(result).toMatchObject({
      title: 'src/deep/new.ts',
      output: 'Wrote file successfully.',
      metadata: { exists: false, filediff: { additions: 1, deletions: 0 } },
    })
    expect(context.asks).toEqual([
      {
        permission: 'edit',
        patterns: ['src/deep/new.ts'],
        always: ['*'],
        metadata: {
          filepath: '/workspace/src/deep/new.ts',
          diff: [
            'Index: /workspace/src/deep/new.ts',
            '='.repeat(67),
            '--- /workspace/src/deep/new.ts',
            '+++ /workspace/src/deep/new.ts',
            '@@ -0,0 +1,1 @@',
            '+export const a = 1',
            '',
          ].join('\n'),
        },
      },
    ])
  })

  it('refuses to overwrite a file it has not read', async () => {
    const context = makeToolContext({ seed: { 'a.ts': 'old' } })
    await expect(writeTool.execute({ filePath: '/workspace/a.ts', content: 'new' }, context)).rejects.toThrow(
      'You must read file /workspace/a.ts before overwriting it. Use the read tool first',
    )
    expect(await context.workspace.readText('/workspace/a.ts')).toBe('old')
  })

  it('refuses to overwrite a file changed since it was read', async () => {
    const context = makeToolContext({ seed: { 'a.ts': 'old' } })
    await readTool.execute({ filePath: '/workspace/a.ts' }, context)
    await context.workspace.writeFile('/workspace/a.ts', 'changed by the user')
    await expect(writeTool.execute({ filePath: '/workspace/a.ts', content: 'new' }, context)).rejects.toThrow(
      /has been modified since it was last read/,
    )
    expect(await context.workspace.readText('/workspace/a.ts')).toBe('changed by the user')
  })

  it('overwrites a file read before, and may write it again without reading', async () => {
    const context = makeToolContext({ seed: { 'a.ts': 'one\n' } })
    await readTool.execute({ filePath: '/workspace/a.ts' }, context)
    const result = await writeTool.execute({ filePath: '/workspace/a.ts', content: 'two\n' }, context)
    expect(result.metadata).toMatchObject({ exists: true, filediff: { additions: 1, deletions: 1 } })
    await writeTool.execute({ filePath: '/workspace/a.ts', content: 'three\n' }, context)
    expect(await context.workspace.readText('/workspace/a.ts')).toBe('three\n')
  })

  it('does not write when the user refuses', async () => {
    const context = makeToolContext({
      answer: (request) => {
        if (request.permission === 'edit') throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    await expect(writeTool.execute({ filePath: '/workspace/a.ts', content: 'x' }, context)).rejects.toThrow(/rejected/)
    expect(await context.workspace.stat('/workspace/a.ts')).toBeUndefined()
  })

  it('asks external_directory before the edit permission outside the workspace', async () => {
    const context = makeToolContext()
    await writeTool.execute({ filePath: '/tmp/out.txt', content: 'x' }, context)
    expect(context.asks.map((ask) => [ask.permission, ask.patterns])).toEqual([
      ['external_directory', ['/tmp/*']],
      ['edit', ['../tmp/out.txt']],
    ])
  })

  it('refuses a directory', async () => {
    const context = makeToolContext({ seed: { 'src/a.ts': '' } })
    await expect(writeTool.execute({ filePath: '/workspace/src', content: 'x' }, context)).rejects.toThrow(
      'Path is a directory, not a file: /workspace/src',
    )
  })
})
