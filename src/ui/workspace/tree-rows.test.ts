import { describe, expect, it } from 'vitest'
import type { FileStat } from '../../core/workspace'
import { directoryToRefresh, displayPath, isWithin, parentOf, sortEntries, visibleRows, type DirectoryListing } from './tree-rows'

const file = (path: string): FileStat => ({ path, name: path.slice(path.lastIndexOf('/') + 1), type: 'file', size: 1, modified: 1 })
const directory = (path: string): FileStat => ({ ...file(path), type: 'directory', size: 0 })
const loaded = (...entries: FileStat[]): DirectoryListing => ({ status: 'loaded', entries })

describe('tree rows', () => {
  it('lists directories first, then names in natural order', () => {
    const sorted = sortEntries([file('/w/b10.ts'), directory('/w/z'), file('/w/b2.ts'), directory('/w/a')])
    expect(sorted.map((entry) => entry.name)).toEqual(['a', 'z', 'b2.ts', 'b10.ts'])
  })

  it('shows the children of expanded directories only, with level and position', () => {
    const listings = {
      '/w': loaded(directory('/w/src'), directory('/w/test'), file('/w/README.md')),
      '/w/src': loaded(file('/w/src/a.ts'), file('/w/src/b.ts')),
      '/w/test': loaded(file('/w/test/a.test.ts')),
    }
    const rows = visibleRows('/w', listings, { '/w/src': true })
    expect(rows.map((row) => [row.stat.path, row.level, row.position, row.setSize])).toEqual([
      ['/w/src', 1, 1, 3],
      ['/w/src/a.ts', 2, 1, 2],
      ['/w/src/b.ts', 2, 2, 2],
      ['/w/test', 1, 2, 3],
      ['/w/README.md', 1, 3, 3],
    ])
    expect(rows[1]!.parent).toBe('/w/src')
  })

  it('refreshes the closest listed directory above a change, and nothing outside the root', () => {
    const listings = { '/w': loaded(directory('/w/a'), directory('/w/b')), '/w/a': loaded(directory('/w/a/known')) }
    expect(directoryToRefresh('/w/a/x.ts', '/w', listings)).toBe('/w/a')
    expect(directoryToRefresh('/w/a/new/deep/x.ts', '/w', listings)).toBe('/w/a')
    expect(directoryToRefresh('/w/a/known/deep/x.ts', '/w', listings)).toBeUndefined()
    expect(directoryToRefresh('/w/b/x.ts', '/w', listings)).toBeUndefined()
    expect(directoryToRefresh('/w/c/x.ts', '/w', listings)).toBe('/w')
    expect(directoryToRefresh('/elsewhere/x.ts', '/w', listings)).toBeUndefined()
    expect(directoryToRefresh('/w', '/w', listings)).toBeUndefined()
  })

  it('knows paths inside others and shows them relative to the root', () => {
    expect(parentOf('/w/a/b.ts')).toBe('/w/a')
    expect(parentOf('/w')).toBe('/')
    expect(isWithin('/w/ab', '/w/a')).toBe(false)
    expect(isWithin('/w/a/b', '/w/a')).toBe(true)
    expect(displayPath('/w/src/a.ts', '/w')).toBe('src/a.ts')
    expect(displayPath('/etc/hosts', '/w')).toBe('/etc/hosts')
  })
})
