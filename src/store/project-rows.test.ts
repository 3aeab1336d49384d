import { describe, expect, test } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { createProjectWithRows } from './project-rows'

const project = { id: 'prj_rows', name: 'Rows', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: 1 }, time: { created: 1, updated: 1 } } as const
const data = new TextEncoder().encode('x')
const file = { type: 'file' as const, projectID: project.id, path: '/workspace/a.ts', hash: 'h1', size: 1, modified: 1 }

describe('project rows', () => {
  test('a project is stored with its files and their contents', async () => {
    const { context, db } = makeTestContext()
    await createProjectWithRows(context, { project, files: [file], blobs: [{ hash: 'h1', data, size: 1 }] })
    expect([await db.projects.count(), await db.files.count(), await db.blobs.count()]).toEqual([1, 1, 1])
  })

  test.each([
    ['project', { project: { ...project, id: 'ses_1' }, files: [file], blobs: [] }],
    ['workspace entry', { project, files: [{ ...file, path: 'a.ts' }], blobs: [] }],
    ['blob', { project, files: [file], blobs: [{ hash: '', data, size: 1 }] }],
  ])('a bad %s row is refused and nothing of the project is written', async (shape, rows) => {
    const { context, db } = makeTestContext()
    await expect(createProjectWithRows(context, rows)).rejects.toMatchObject({ name: 'ValidationError', data: { shape } })
    expect([await db.projects.count(), await db.files.count(), await db.blobs.count()]).toEqual([0, 0, 0])
  })
})
