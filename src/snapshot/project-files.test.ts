import { describe, expect, it } from 'vitest'
import type { WorkspaceEntry } from '../core/schema'
import { makeTestContext } from '../testing/test-context'
import { largeFileMarker } from './manifest'
import { projectFilesFromSnapshot } from './project-files'

const SOURCE = 'prj_source'
const COPY = 'prj_copy'
const file = (path: string, hash: string, size: number, modified = 5): WorkspaceEntry => ({ type: 'file', projectID: SOURCE, path, hash, size, modified })

describe('project files from a snapshot', () => {
  it('makes rows for the snapshot files, sharing their contents, with directories and untracked files', async () => {
    const { context, db } = makeTestContext()
    await db.blobs.bulkAdd([{ hash: 'h-old', data: new Uint8Array(3), size: 3 }])
    const source = [file('/workspace/src/a.ts', 'h-new', 4), file('/workspace/.env', 'h-env', 6), file('/workspace/b.txt', 'h-b', 2), file('/tmp/scratch', 'h-t', 1)]
    const result = await projectFilesFromSnapshot({
      store: context,
      snapshot: { id: 's', projectID: SOURCE, files: { 'src/a.ts': 'h-old', 'b.txt': 'h-b' }, time: { created: 1 } },
      projectID: COPY,
      root: '/workspace',
      source,
      tracked: new Set(['src/a.ts', 'b.txt']),
      now: 100,
    })
    expect(result).toEqual({
      rows: [
        { type: 'file', projectID: COPY, path: '/workspace/.env', hash: 'h-env', size: 6, modified: 5 },
        { type: 'file', projectID: COPY, path: '/workspace/b.txt', hash: 'h-b', size: 2, modified: 100 },
        { type: 'file', projectID: COPY, path: '/workspace/src/a.ts', hash: 'h-old', size: 3, modified: 100 },
        { type: 'directory', projectID: COPY, path: '/workspace/src', modified: 100 },
      ],
      missing: [],
    })
  })

  it('keeps a large file only while it is the one recorded, and reports contents that are gone', async () => {
    const { context } = makeTestContext()
    const big = largeFileMarker(3_000_000, 7)
    const result = await projectFilesFromSnapshot({
      store: context,
      snapshot: { id: 's', projectID: SOURCE, files: { 'same.bin': big, 'changed.bin': largeFileMarker(3_000_000, 8), 'lost.txt': 'h-lost' }, time: { created: 1 } },
      projectID: COPY,
      root: '/workspace',
      source: [file('/workspace/same.bin', 'h-same', 3_000_000, 7), file('/workspace/changed.bin', 'h-changed', 3_100_000, 9)],
      tracked: new Set(['same.bin', 'changed.bin']),
      now: 100,
    })
    expect(result.rows).toEqual([{ type: 'file', projectID: COPY, path: '/workspace/same.bin', hash: 'h-same', size: 3_000_000, modified: 7 }])
    expect(result.missing).toEqual(['changed.bin', 'lost.txt'])
  })
})
