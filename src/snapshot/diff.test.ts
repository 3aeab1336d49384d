import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../core/schema'
import { changedFiles, fileDiffs, MAX_PATCH_BYTES } from './diff'
import { summarizeDiffs } from '../core/diff-summary'
import { MAX_TRACKED_FILE_BYTES } from './manifest'
import { makeProject, PROJECT } from './testing/project'
import { takeSnapshot } from './track'

const manifest = (files: Record<string, string>): Snapshot => ({ id: 'x', projectID: PROJECT, files, time: { created: 0 } })

describe('changedFiles', () => {
  it('lists added, changed and deleted paths in order, and nothing else', () => {
    const before = manifest({ 'keep.ts': 'h1', 'edit.ts': 'h2', 'gone.ts': 'h3' })
    const after = manifest({ 'keep.ts': 'h1', 'edit.ts': 'h4', 'new.ts': 'h5' })
    expect(changedFiles(before, after)).toEqual(['edit.ts', 'gone.ts', 'new.ts'])
    expect(changedFiles(before, before)).toEqual([])
  })
})

describe('fileDiffs', () => {
  it('gives each changed file its status, counts and unified patch', async () => {
    const project = makeProject({ 'keep.ts': 'k\n', 'edit.ts': 'a\nb\nc\n', 'gone.ts': 'bye\n' })
    const before = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('edit.ts', 'a\nB\nc\nd\n')
    await project.workspace.remove('gone.ts')
    await project.workspace.writeFile('src/new.ts', 'hello\n')
    const after = await takeSnapshot(project.track)

    const diffs = await fileDiffs({ store: project.store, before: before.id, after })
    expect(diffs).toEqual([
      {
        file: 'edit.ts',
        status: 'modified',
        additions: 2,
        deletions: 1,
        patch: '--- a/edit.ts\n+++ b/edit.ts\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n',
      },
      { file: 'gone.ts', status: 'deleted', additions: 0, deletions: 1, patch: '--- a/gone.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n' },
      { file: 'src/new.ts', status: 'added', additions: 1, deletions: 0, patch: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+hello\n' },
    ])
    expect(summarizeDiffs(diffs)).toEqual({ additions: 3, deletions: 2, files: 3 })
  })

  it('counts lines of a large text file but leaves out its patch', async () => {
    const lines = (count: number, extra = '') => Array.from({ length: count }, (_, index) => `line ${index} ${'x'.repeat(40)}\n`).join('') + extra
    const project = makeProject({ 'big.txt': lines(15_000) })
    const before = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('big.txt', lines(15_000, 'one more\nand another\n'))
    const after = await takeSnapshot(project.track)
    expect((await project.db.blobs.get(after.files['big.txt']!))!.size).toBeGreaterThan(MAX_PATCH_BYTES)
    expect(await fileDiffs({ store: project.store, before, after })).toEqual([{ file: 'big.txt', status: 'modified', additions: 2, deletions: 0 }])
  })

  it('gives binary files and files over the tracking limit a status but no patch', async () => {
    const project = makeProject()
    await project.workspace.writeFile('image.png', new Uint8Array([137, 80, 78, 71, 0, 1, 2]))
    await project.workspace.writeFile('huge.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 1))
    const before = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('image.png', new Uint8Array([137, 80, 78, 71, 0, 9]))
    await project.workspace.writeFile('huge.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 2))
    await project.workspace.writeFile('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))
    const after = await takeSnapshot(project.track)
    expect(await fileDiffs({ store: project.store, before, after })).toEqual([
      { file: 'huge.bin', status: 'modified', additions: 0, deletions: 0 },
      { file: 'image.png', status: 'modified', additions: 0, deletions: 0 },
      { file: 'latin1.txt', status: 'added', additions: 0, deletions: 0 },
    ])
  })

  it('fails with a named error for an unknown snapshot', async () => {
    const project = makeProject()
    const snapshot = await takeSnapshot(project.track)
    await expect(fileDiffs({ store: project.store, before: 'missing', after: snapshot })).rejects.toMatchObject({
      name: 'NotFoundError',
      data: { kind: 'snapshot', id: 'missing' },
    })
  })
})
