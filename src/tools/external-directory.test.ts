import { describe, expect, it } from 'vitest'
import { assertExternalDirectory } from './external-directory'
import { makeToolContext } from './testing/tool-context'

describe('assertExternalDirectory', () => {
  it('asks nothing inside the workspace', async () => {
    const context = makeToolContext()
    await assertExternalDirectory(context, 'src/a.ts')
    await assertExternalDirectory(context, '/workspace')
    expect(context.asks).toEqual([])
  })

  it('asks for the parent directory of a file outside it', async () => {
    const context = makeToolContext()
    await assertExternalDirectory(context, '/etc/hosts')
    expect(context.asks).toEqual([
      { permission: 'external_directory', patterns: ['/etc/*'], always: ['/etc/*'], metadata: { filepath: '/etc/hosts', parentDir: '/etc' } },
    ])
  })

  it('asks for a directory itself, and for the root as /*', async () => {
    const context = makeToolContext()
    await assertExternalDirectory(context, '/workspace/../tmp', { kind: 'directory' })
    await assertExternalDirectory(context, '/x')
    expect(context.asks.map((ask) => ask.patterns)).toEqual([['/tmp/*'], ['/*']])
  })

  it('fails when the user refuses', async () => {
    const context = makeToolContext({
      answer: () => {
        throw new Error('rejected')
      },
    })
    await expect(assertExternalDirectory(context, '/etc/hosts')).rejects.toThrow('rejected')
  })
})
