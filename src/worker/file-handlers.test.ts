import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'
import { ensureDefaultProject } from '../store/project-store'
import { createSession, getSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { makeTestWorkspace } from '../tools/testing/tool-context'
import { fileHandlers } from './file-handlers'

async function setup(files: Record<string, string>) {
  const { context } = makeTestContext()
  const project = await ensureDefaultProject(context)
  const session = await createSession(context, { projectID: project.id })
  const workspace = makeTestWorkspace(files)
  const handlers = fileHandlers(() => context, async () => workspace)
  return { context, projectID: project.id, session, workspace, handlers }
}

const text = (data: Uint8Array) => new TextDecoder().decode(data)

describe('file tree actions', () => {
  test('create, rename and move go through the workspace and are recorded as the user’s change', async () => {
    const { context, projectID, session, workspace, handlers } = await setup({ 'src/a.ts': 'a\n' })
    await handlers.createFolder({ projectID, directory: '/workspace', name: 'lib' })
    await handlers.createFile({ projectID, directory: '/workspace/lib', name: 'b.ts', sessionID: session.id })
    expect(await workspace.readText('/workspace/lib/b.ts')).toBe('')
    await expect(handlers.createFile({ projectID, directory: '/workspace/lib', name: 'B.ts' })).rejects.toMatchObject({ name: 'WorkspaceError', code: 'exists' })
    await expect(handlers.createFile({ projectID, directory: '/workspace', name: '../x' })).rejects.toThrow(/cannot contain "\/"/)

    expect(await handlers.renameFile({ projectID, path: '/workspace/src', name: 'source', sessionID: session.id })).toEqual({ path: '/workspace/source', type: 'directory' })
    expect(await workspace.readText('/workspace/source/a.ts')).toBe('a\n')
    expect(await workspace.stat('/workspace/src')).toBeUndefined()

    await handlers.moveFile({ projectID, path: '/workspace/source/a.ts', directory: '/workspace/lib', sessionID: session.id })
    expect(await workspace.readText('/workspace/lib/a.ts')).toBe('a\n')
    await expect(handlers.moveFile({ projectID, path: '/workspace/lib', directory: '/workspace/lib' })).rejects.toThrow('A folder cannot be moved into itself.')

    const edits = (await getSession(context, session.id)).userEdits ?? []
    expect(edits.map((edit) => edit.file).sort()).toEqual(['lib/a.ts', 'lib/b.ts', 'source/a.ts', 'src/a.ts'])
  })

  test('a deleted folder comes back with its contents, once', async () => {
    const { projectID, workspace, handlers } = await setup({ 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n' })
    await workspace.mkdir('/workspace/src/empty')
    const deleted = await handlers.deleteFile({ projectID, path: '/workspace/src' })
    expect(deleted).toMatchObject({ path: '/workspace/src', type: 'directory', files: 2 })
    expect(await workspace.stat('/workspace/src')).toBeUndefined()

    await handlers.restoreDeleted({ token: deleted.token })
    expect(await workspace.readText('/workspace/src/a.ts')).toBe('a\n')
    expect(await workspace.readText('/workspace/src/deep/b.ts')).toBe('b\n')
    expect((await workspace.stat('/workspace/src/empty'))?.type).toBe('directory')
    await expect(handlers.restoreDeleted({ token: deleted.token })).rejects.toThrow(/can no longer be undone/)
  })

  test('uploads keep the dropped folder’s name and cannot escape the project', async () => {
    const { projectID, workspace, handlers } = await setup({ 'src/a.ts': 'a\n' })
    const data = new TextEncoder().encode('hi\n')
    const { written } = await handlers.writeUploaded({
      projectID,
      directory: '/workspace/src',
      files: [
        { path: 'assets/logo.txt', data },
        { path: '../../../etc/passwd', data },
        { path: '__MACOSX/junk', data },
      ],
    })
    expect(written).toEqual(['/workspace/src/assets/logo.txt', '/workspace/src/etc/passwd'])
    expect(await workspace.readText('/workspace/src/assets/logo.txt')).toBe('hi\n')
    await expect(handlers.writeUploaded({ projectID, directory: '/etc', files: [{ path: 'x', data }] })).rejects.toThrow(/outside the project/)
  })

  test('the project zips with its folders and without node_modules', async () => {
    const { projectID, handlers } = await setup({ 'index.html': '<p>hi</p>', 'src/a.ts': 'a\n', 'node_modules/x/index.js': 'x' })
    const zip = await handlers.zipProject({ projectID })
    expect(zip.name).toMatch(/\.zip$/)
    const entries = unzipSync(zip.data)
    expect(Object.keys(entries).sort()).toEqual(['index.html', 'src/', 'src/a.ts'])
    expect(text(entries['src/a.ts']!)).toBe('a\n')
  })
})
