import { describe, expect, it } from 'vitest'
import { isContentHash, largeFileSize, MAX_TRACKED_FILE_BYTES } from './manifest'
import { PROJECT, makeProject } from './testing/project'
import { takeSnapshot, trackSnapshot } from './track'
import { hashContent } from '../workspace/local/hash'

const text = (value: string) => new TextEncoder().encode(value)

describe('trackSnapshot', () => {
  it('records every file by content hash and stores identical contents once', async () => {
    const project = makeProject({ 'a.txt': 'same\n', 'src/b.txt': 'same\n', 'src/c.txt': 'other\n' })
    const snapshot = await takeSnapshot(project.track)
    const same = await hashContent(text('same\n'))
    expect(snapshot).toMatchObject({
      projectID: PROJECT,
      files: { 'a.txt': same, 'src/b.txt': same, 'src/c.txt': await hashContent(text('other\n')) },
    })
    expect(await project.db.blobs.count()).toBe(2)
    expect(new TextDecoder().decode((await project.db.blobs.get(same))!.data)).toBe('same\n')
  })

  it('gives an unchanged workspace the same id, one row, and reads no file again', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'src/b.txt': 'b\n' })
    const first = await trackSnapshot(project.track)
    expect(project.plain.reads).toHaveLength(2)
    project.advance(1000)
    const second = await trackSnapshot(project.track)
    expect(second).toBe(first)
    expect(project.plain.reads).toHaveLength(2)
    expect(await project.db.snapshots.count()).toBe(1)
    expect(await project.db.blobs.count()).toBe(2)
  })

  it('reads only the files whose size or time changed', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const first = await takeSnapshot(project.track)
    project.tick(5)
    // Same size, new content: only the time tells.
    await project.workspace.writeFile('b.txt', 'B\n')
    project.plain.reads.length = 0
    const second = await takeSnapshot(project.track)
    expect(project.plain.reads).toEqual(['/workspace/b.txt'])
    expect(second.id).not.toBe(first.id)
    expect(second.files['b.txt']).toBe(await hashContent(text('B\n')))
    expect(second.files['a.txt']).toBe(first.files['a.txt'])
  })

  it('hashes again a file read within the racy window of its last change', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    // Read right after the write: a second write in the same clock tick would leave size and time unchanged.
    project.setCacheTime(project.fileTime() + 10)
    await trackSnapshot(project.track)
    await trackSnapshot(project.track)
    expect(project.plain.reads).toEqual(['/workspace/a.txt', '/workspace/a.txt'])
  })

  it('stores a blob again when the cache vouches for a hash whose blob is gone', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    await trackSnapshot(project.track)
    await project.db.blobs.clear()
    await trackSnapshot(project.track)
    expect(await project.db.blobs.count()).toBe(1)
  })

  it('uses the local backend hashes without reading files it already stored', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const input = { store: project.store, projectID: PROJECT, workspace: project.workspace }
    const first = await trackSnapshot(input)
    const reads: string[] = []
    const readFile = project.workspace.readFile.bind(project.workspace)
    project.workspace.readFile = (path) => {
      reads.push(path)
      return readFile(path)
    }
    expect(await trackSnapshot(input)).toBe(first)
    expect(reads).toEqual([])
  })

  it('leaves out node_modules, .git, tabcode internals (but not plans), ignored patterns and big files', async () => {
    const project = makeProject({
      'src/index.ts': 'x\n',
      'node_modules/dep/index.js': 'x\n',
      'packages/a/node_modules/dep/index.js': 'x\n',
      '.git/HEAD': 'ref\n',
      '.tabcode/state.json': '{}',
      '.tabcode/plans/plan.md': '# plan\n',
      '.gitignore': 'dist/\n*.log\n!keep.log\n',
      'dist/bundle.js': 'x\n',
      'debug.log': 'x\n',
      'keep.log': 'x\n',
    })
    await project.workspace.writeFile('big.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 1))
    await project.workspace.writeFile('limit.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES))
    const snapshot = await takeSnapshot(project.track)
    expect(Object.keys(snapshot.files).sort()).toEqual(['.gitignore', '.tabcode/plans/plan.md', 'big.bin', 'keep.log', 'limit.bin', 'src/index.ts'])
    expect(isContentHash(snapshot.files['big.bin']!)).toBe(false)
    expect(largeFileSize(snapshot.files['big.bin']!)).toBe(MAX_TRACKED_FILE_BYTES + 1)
    expect(isContentHash(snapshot.files['limit.bin']!)).toBe(true)
    expect(project.plain.reads).not.toContain('/workspace/big.bin')
    expect(await project.db.blobs.get(snapshot.files['big.bin']!)).toBeUndefined()
  })

  it('notices a big file change by size and time', async () => {
    const project = makeProject()
    await project.workspace.writeFile('big.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 1))
    const first = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('big.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 1).fill(1))
    const second = await takeSnapshot(project.track)
    expect(second.files['big.bin']).not.toBe(first.files['big.bin'])
  })

  it('keeps the projects of identical workspaces apart', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    const one = await trackSnapshot(project.track)
    const other = await trackSnapshot({ ...project.track, projectID: 'prj_other' })
    expect(other).not.toBe(one)
    expect((await project.db.snapshots.get(other))?.projectID).toBe('prj_other')
  })

  it('keeps the first creation time when the same content is tracked again', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    const first = await takeSnapshot(project.track)
    project.advance(5000)
    const again = await takeSnapshot(project.track)
    expect(again.time.created).toBe(first.time.created)
  })

  it('tracks more files than one batch holds', async () => {
    const files = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`dir${index % 7}/f${index}.txt`, `${index % 50}\n`]))
    const project = makeProject(files)
    const snapshot = await takeSnapshot(project.track)
    expect(Object.keys(snapshot.files)).toHaveLength(150)
    expect(await project.db.blobs.count()).toBe(50)
    expect(snapshot.files['dir3/f73.txt']).toBe(await hashContent(text('23\n')))
    expect(await trackSnapshot(project.track)).toBe(snapshot.id)
    expect(project.plain.reads).toHaveLength(150)
  })

  it('records an empty workspace', async () => {
    const project = makeProject()
    const snapshot = await takeSnapshot(project.track)
    expect(snapshot.files).toEqual({})
  })
})
