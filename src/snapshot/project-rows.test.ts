import { describe, expect, test } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { createLocalWorkspace } from '../workspace/local/local-workspace'
import { addProjectRows } from '../store/project-rows'
import { createDexieStorage } from '../store/dexie-storage'
import { projectRows } from './project-rows'

const project = { id: 'prj_rows', name: 'Rows', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } } as const
const encode = (text: string) => new TextEncoder().encode(text)

describe('projectRows', () => {
  test('written in one transaction, the files read back through the local workspace, each content stored once', async () => {
    const { context } = makeTestContext()
    const rows = await projectRows(project, [
      { path: 'src/a.ts', data: encode('same') },
      { path: 'src/deep/b.ts', data: encode('same') },
      { path: 'README.md', data: encode('# Rows') },
    ], 5)
    expect(rows.blobs).toHaveLength(2)
    const { db } = context
    await db.transaction('rw', db.projects, db.files, db.blobs, () => addProjectRows(db, rows))
    const workspace = await createLocalWorkspace({ storage: createDexieStorage(db, project.id), now: () => 6 })
    expect(new TextDecoder().decode(await workspace.readFile('/workspace/src/deep/b.ts'))).toBe('same')
    expect((await workspace.list('/workspace')).map((entry) => entry.name).sort()).toEqual(['README.md', 'src'])
    expect((await workspace.list('/workspace/src')).map((entry) => `${entry.name}:${entry.type}`).sort()).toEqual(['a.ts:file', 'deep:directory'])
  })

  test('a file where a folder must be (or the other way round) is refused before anything is written', async () => {
    await expect(projectRows(project, [{ path: 'a', data: encode('x') }, { path: 'a/b', data: encode('y') }], 1)).rejects.toMatchObject({ code: 'not-directory' })
    await expect(projectRows(project, [{ path: 'a/b', data: encode('y') }, { path: 'a', data: encode('x') }], 1)).rejects.toMatchObject({ code: 'is-directory' })
  })
})
