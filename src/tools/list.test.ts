import { describe, expect, it } from 'vitest'
import { LIST_LIMIT, listTool, renderTree } from './list'
import { makeToolContext } from './testing/tool-context'

const PROJECT = {
  'package.json': '{}',
  'README.md': '# hi',
  'src/index.ts': '',
  'src/lib/util.ts': '',
  'src/lib/util.test.ts': '',
  'node_modules/react/index.js': '',
  '.git/HEAD': '',
  'dist/app.js': '',
  'coverage/lcov.info': '',
  'packages/web/node_modules/x/y.js': '',
  'packages/web/main.ts': '',
}

describe('list', () => {
  it('draws the project as a tree, leaving out dependency and build folders', async () => {
    const context = makeToolContext({ seed: PROJECT })
    const result = await listTool.execute({}, context)
    expect(result.output).toBe(
      [
        '/workspace/',
        '  packages/',
        '    web/',
        '      main.ts',
        '  src/',
        '    lib/',
        '      util.test.ts',
        '      util.ts',
        '    index.ts',
        '  README.md',
        '  package.json',
        '',
      ].join('\n'),
    )
    expect(result.title).toBe('.')
    expect(result.metadata).toEqual({ count: 6, truncated: false })
    expect(context.asks).toEqual([{ permission: 'list', patterns: ['/workspace'], always: ['*'], metadata: { path: '/workspace' } }])
  })

  it('lists a subdirectory and leaves out what ignore names', async () => {
    const context = makeToolContext({ seed: PROJECT })
    const result = await listTool.execute({ path: 'src', ignore: ['*.test.ts'] }, context)
    expect(result.output).toBe('/workspace/src/\n  lib/\n    util.ts\n  index.ts\n')
    expect(result.title).toBe('src')
    const folder = await listTool.execute({ ignore: ['src/lib/', 'packages'] }, context)
    expect(folder.output).toBe('/workspace/\n  src/\n    index.ts\n  README.md\n  package.json\n')
  })

  it(`shows at most ${LIST_LIMIT} files and says so`, async () => {
    const seed = Object.fromEntries(Array.from({ length: LIST_LIMIT + 30 }, (_, index) => [`files/f${String(index).padStart(3, '0')}.txt`, '']))
    const context = makeToolContext({ seed: { ...seed, 'top.txt': '' } })
    const result = await listTool.execute({}, context)
    expect(result.metadata).toEqual({ count: LIST_LIMIT, truncated: true })
    // Breadth first: the top-level file is in, the deepest folder's tail is not.
    expect(result.output).toContain('\n  top.txt\n')
    expect(result.output.match(/\.txt/g)).toHaveLength(LIST_LIMIT)
    expect(result.output).toMatch(/\(Showing the first 100 files\. .*\)\n$/)
  })

  it('refuses a missing directory', async () => {
    const context = makeToolContext({ seed: PROJECT })
    await expect(listTool.execute({ path: 'nope' }, context)).rejects.toThrow('Directory not found: /workspace/nope')
  })

  it('renders nested folders before files, each sorted', () => {
    expect(renderTree(['b.txt', 'z/y/x.txt', 'a/c.txt', 'a.txt'])).toBe('  a/\n    c.txt\n  z/\n    y/\n      x.txt\n  a.txt\n  b.txt\n')
  })
})
