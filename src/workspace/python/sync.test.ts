import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { byDepth, compareTrees, DIRECTORY, readProjectTree } from './sync'

describe('compareTrees', () => {
  it('finds written, new and removed files, new directories and a file that became a directory', () => {
    const before = new Map([
      ['/w/same.txt', '3:1'],
      ['/w/edited.txt', '3:1'],
      ['/w/gone', DIRECTORY],
      ['/w/gone/a.txt', '1:1'],
      ['/w/gone/deep', DIRECTORY],
      ['/w/was-file', '1:1'],
    ])
    const after = new Map([
      ['/w/same.txt', '3:1'],
      ['/w/edited.txt', '3:2'],
      ['/w/new.txt', '1:5'],
      ['/w/pkg', DIRECTORY],
      ['/w/was-file', DIRECTORY],
    ])
    expect(compareTrees(before, after)).toEqual({
      // A removed directory covers what was inside it.
      remove: ['/w/gone', '/w/was-file'],
      mkdir: ['/w/pkg', '/w/was-file'],
      write: ['/w/edited.txt', '/w/new.txt'],
    })
  })

  it('finds nothing between equal trees, which keeps a warm run from sending anything', () => {
    const tree = new Map([['/w/a.py', '10:7']])
    expect(compareTrees(tree, new Map(tree))).toEqual({ remove: [], mkdir: [], write: [] })
  })
})

describe('readProjectTree', () => {
  it('lists the project with sizes and times, without .git and node_modules', async () => {
    const files = createMemoryWorkspace({ 'src/a.py': 'x = 1\n', '.git/HEAD': 'ref', 'node_modules/m/index.js': '', 'README.md': '' }, { now: () => 5 })
    const tree = await readProjectTree(files, '/workspace')
    expect(Object.fromEntries(tree)).toEqual({ '/workspace/src': DIRECTORY, '/workspace/src/a.py': '6:5', '/workspace/README.md': '0:5' })
  })
})

it('byDepth puts parents first', () => {
  expect(byDepth(['/w/a/b/c', '/w/z', '/w/a/b', '/w/a'])).toEqual(['/w/a', '/w/z', '/w/a/b', '/w/a/b/c'])
})
