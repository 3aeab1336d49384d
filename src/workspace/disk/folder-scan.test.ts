import { describe, expect, it } from 'vitest'
import { FileIndex } from '../local/file-index'
import { WORKSPACE_ROOT } from '../workspace'
import type { DiskEntry } from './disk-entry'
import { compareScan } from './folder-scan'

function indexOf(entries: DiskEntry[]): FileIndex<DiskEntry> {
  const index = new FileIndex<DiskEntry>(['/', WORKSPACE_ROOT])
  for (const entry of entries) index.set(entry)
  return index
}

const file = (path: string, size: number, modified: number): DiskEntry => ({ type: 'file', path: `/workspace/${path}`, size, modified })
const folder = (path: string): DiskEntry => ({ type: 'directory', path: `/workspace/${path}`, modified: 0 })

describe('compareScan', () => {
  it('names files whose size or time changed or that are new, folders new to the index, and only the top of a removed folder', () => {
    const index = indexOf([
      file('same.txt', 1, 10),
      file('resized.txt', 1, 10),
      file('touched.txt', 1, 10),
      folder('old'),
      file('old/a.txt', 1, 10),
      folder('old/deep'),
      file('gone.txt', 1, 10),
    ])
    const scan = [
      file('same.txt', 1, 10),
      file('resized.txt', 2, 10),
      file('touched.txt', 1, 20),
      file('new.txt', 1, 30),
      folder('fresh'),
      file('fresh/b.txt', 1, 30),
    ]
    const difference = compareScan(index, WORKSPACE_ROOT, scan)
    expect(difference.changed.map((entry) => entry.path).sort()).toEqual([
      '/workspace/fresh/b.txt',
      '/workspace/new.txt',
      '/workspace/resized.txt',
      '/workspace/touched.txt',
    ])
    expect(difference.directories).toEqual([folder('fresh')])
    expect(difference.removed.sort()).toEqual(['/workspace/gone.txt', '/workspace/old'])
  })

  it('finds nothing when the folder is as the index knows it', () => {
    const entries = [folder('src'), file('src/a.ts', 3, 10)]
    expect(compareScan(indexOf(entries), WORKSPACE_ROOT, entries)).toEqual({ changed: [], directories: [], removed: [] })
  })
})
