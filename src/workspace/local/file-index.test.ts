import { describe, expect, it } from 'vitest'
import { FileIndex } from './file-index'

describe('FileIndex', () => {
  it('lists children by name and removes whole subtrees', () => {
    const index = new FileIndex(['/', '/workspace'])
    index.set({ type: 'file', path: '/workspace/b.ts', hash: 'h', size: 1, modified: 1 })
    index.set({ type: 'directory', path: '/workspace/a', modified: 1 })
    index.set({ type: 'file', path: '/workspace/a/x.ts', hash: 'h', size: 1, modified: 1 })
    expect(index.list('/workspace').map((entry) => entry.path)).toEqual(['/workspace/a', '/workspace/b.ts'])
    index.delete('/workspace/a')
    expect(index.get('/workspace/a/x.ts')).toBeUndefined()
    expect(index.list('/workspace').map((entry) => entry.path)).toEqual(['/workspace/b.ts'])
  })

  it('shows a stored file whose parent directory was never stored', () => {
    const index = new FileIndex(['/', '/workspace'])
    index.set({ type: 'file', path: '/workspace/lost/parent/f.ts', hash: 'h', size: 1, modified: 5 })
    expect(index.get('/workspace/lost')).toEqual({ type: 'directory', path: '/workspace/lost', modified: 5 })
    expect(index.subtree('/workspace').map((entry) => entry.path)).toEqual([
      '/workspace',
      '/workspace/lost',
      '/workspace/lost/parent',
      '/workspace/lost/parent/f.ts',
    ])
  })
})
