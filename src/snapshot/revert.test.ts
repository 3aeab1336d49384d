import { describe, expect, it } from 'vitest'
import { MAX_TRACKED_FILE_BYTES } from './manifest'
import { createStepSnapshots } from './patch'
import { restoreFiles, revertPatches, revertPlan } from './revert'
import { makeProject } from './testing/project'
import { takeSnapshot } from './track'

describe('restoreFiles', () => {
  it('restores the listed files one by one and touches no other', async () => {
    const project = makeProject({ 'edit.txt': 'old\n', 'gone.txt': 'bye\n', 'same.txt': 'same\n', 'other.txt': 'mine\n' })
    const snapshot = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('edit.txt', 'new\n')
    await project.workspace.remove('gone.txt')
    await project.workspace.writeFile('src/created.txt', 'later\n')
    await project.workspace.writeFile('other.txt', 'edited by the user\n')

    const result = await restoreFiles({
      store: project.store,
      workspace: project.workspace,
      snapshot: snapshot.id,
      files: ['edit.txt', 'gone.txt', '/workspace/src/created.txt', 'same.txt', 'never.txt'],
    })
    expect(result).toEqual({
      written: ['edit.txt', 'gone.txt'],
      deleted: ['src/created.txt'],
      unchanged: ['same.txt', 'never.txt'],
      skipped: [],
      failed: [],
    })
    expect(await project.workspace.readText('edit.txt')).toBe('old\n')
    expect(await project.workspace.readText('gone.txt')).toBe('bye\n')
    expect(await project.workspace.stat('src/created.txt')).toBeUndefined()
    expect(await project.workspace.readText('other.txt')).toBe('edited by the user\n')
  })

  it('leaves a file recorded only by size alone', async () => {
    const project = makeProject()
    await project.workspace.writeFile('big.bin', new Uint8Array(MAX_TRACKED_FILE_BYTES + 1))
    const snapshot = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('big.bin', 'small now')
    const result = await restoreFiles({ store: project.store, workspace: project.workspace, snapshot, files: ['big.bin'] })
    expect(result.skipped).toEqual([{ file: 'big.bin', reason: 'large' }])
    expect(await project.workspace.readText('big.bin')).toBe('small now')
  })

  it('reports a path outside the workspace as failed and restores the rest', async () => {
    const project = makeProject({ 'a.txt': 'a\n' })
    const snapshot = await takeSnapshot(project.track)
    await project.workspace.writeFile('a.txt', 'changed\n')
    const result = await restoreFiles({ store: project.store, workspace: project.workspace, snapshot, files: ['../etc/passwd', 'a.txt'] })
    expect(result.written).toEqual(['a.txt'])
    expect(result.failed).toMatchObject([{ file: '../etc/passwd', error: { name: 'WorkspaceError' } }])
  })

  it('fails before writing anything when a blob is missing', async () => {
    const project = makeProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const snapshot = await takeSnapshot(project.track)
    project.tick(5)
    await project.workspace.writeFile('a.txt', 'A\n')
    await project.workspace.writeFile('b.txt', 'B\n')
    await project.db.blobs.delete(snapshot.files['b.txt']!)
    await expect(
      restoreFiles({ store: project.store, workspace: project.workspace, snapshot, files: ['a.txt', 'b.txt'] }),
    ).rejects.toMatchObject({ name: 'NotFoundError', data: { kind: 'blob' } })
    expect(await project.workspace.readText('a.txt')).toBe('A\n')
  })
})

describe('revertPatches', () => {
  it('takes each file from the oldest patch that touched it', () => {
    expect(
      revertPlan([
        { hash: 's1', files: ['a', 'b'] },
        { hash: 's2', files: ['b', 'c'] },
      ]),
    ).toEqual([
      { snapshot: 's1', files: ['a', 'b'] },
      { snapshot: 's2', files: ['c'] },
    ])
  })

  it('undoes two steps, including a file the second step created', async () => {
    const project = makeProject({ 'a.txt': 'v0\n' })
    const steps = createStepSnapshots(project.track)
    const first = await steps.beginStep()
    project.tick(5)
    await project.workspace.writeFile('a.txt', 'v1\n')
    const one = await steps.endStep(first)
    const second = await steps.beginStep()
    project.tick(5)
    await project.workspace.writeFile('a.txt', 'v2\n')
    await project.workspace.writeFile('b.txt', 'new\n')
    const two = await steps.endStep(second)

    const result = await revertPatches({ store: project.store, workspace: project.workspace, patches: [one.patch!, two.patch!] })
    expect(result).toMatchObject({ written: ['a.txt'], deleted: ['b.txt'], failed: [] })
    expect(await project.workspace.readText('a.txt')).toBe('v0\n')
    expect(await project.workspace.stat('b.txt')).toBeUndefined()

    // Undo the revert from the snapshot after the last step.
    await restoreFiles({ store: project.store, workspace: project.workspace, snapshot: two.after, files: ['a.txt', 'b.txt'] })
    expect(await project.workspace.readText('a.txt')).toBe('v2\n')
    expect(await project.workspace.readText('b.txt')).toBe('new\n')
  })
})
