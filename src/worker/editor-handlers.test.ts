import { describe, expect, test } from 'vitest'
import { ensureDefaultProject } from '../store/project-store'
import { createSession, getSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { editTool } from '../tools/edit'
import { readTool } from '../tools/read'
import { makeTestWorkspace, makeToolContext } from '../tools/testing/tool-context'
import { editorHandlers, recordEdit } from './editor-handlers'

async function setup(files: Record<string, string>) {
  const { context } = makeTestContext()
  const project = await ensureDefaultProject(context)
  const session = await createSession(context, { projectID: project.id })
  const workspace = makeTestWorkspace(files)
  const handlers = editorHandlers(() => context, async () => workspace)
  return { context, project, session, workspace, handlers }
}

describe('editor saves', () => {
  test('a save writes through the workspace, is snapshotted, and shows as the user’s edit after a reload', async () => {
    const { context, project, session, workspace, handlers } = await setup({ 'app.js': 'let a = 1\n' })
    const saved = await handlers.saveFile({ projectID: project.id, sessionID: session.id, path: 'app.js', content: 'let a = 2\n' })
    expect(saved.path).toBe('/workspace/app.js')
    expect(await workspace.readText('/workspace/app.js')).toBe('let a = 2\n')
    // Both versions are in a stored snapshot.
    const manifests = (await context.db.snapshots.toArray()).map((snapshot) => snapshot.files['app.js'])
    expect(new Set(manifests).size).toBe(2)
    // A second save keeps the first "before": the user's net change.
    await handlers.saveFile({ projectID: project.id, sessionID: session.id, path: 'app.js', content: 'let a = 3\n' })
    expect((await getSession(context, session.id)).userEdits).toHaveLength(1)
    const reloaded = editorHandlers(() => context, async () => workspace)
    const edits = await reloaded.userEdits(session.id)
    expect(edits).toMatchObject([{ file: 'app.js', status: 'modified', additions: 1, deletions: 1 }])
    expect(edits[0]!.patch).toContain('-let a = 1')
    expect(edits[0]!.patch).toContain('+let a = 3')
  })

  test('a save with an outdated `expected` is refused and writes nothing', async () => {
    const { project, session, workspace, handlers } = await setup({ 'app.js': 'theirs\n' })
    await expect(
      handlers.saveFile({ projectID: project.id, sessionID: session.id, path: 'app.js', content: 'mine\n', expected: 'original\n' }),
    ).rejects.toMatchObject({ name: 'SaveConflictError', data: { path: '/workspace/app.js' } })
    expect(await workspace.readText('/workspace/app.js')).toBe('theirs\n')
    expect(await handlers.userEdits(session.id)).toEqual([])
  })

  test('the edit tool refuses a file the user saved since the model read it, and works after a re-read', async () => {
    const { project, session, workspace, handlers } = await setup({ 'app.js': 'let a = 1\n' })
    const tools = makeToolContext({ workspace })
    await readTool.execute({ filePath: '/workspace/app.js' }, tools)
    await handlers.saveFile({ projectID: project.id, sessionID: session.id, path: 'app.js', content: 'let a = 1\nlet b = 2\n' })
    await expect(editTool.execute({ filePath: '/workspace/app.js', oldString: 'let a = 1', newString: 'let a = 10' }, tools)).rejects.toThrow(
      /has been modified since it was last read/,
    )
    expect(await workspace.readText('/workspace/app.js')).toBe('let a = 1\nlet b = 2\n')
    await readTool.execute({ filePath: '/workspace/app.js' }, tools)
    await editTool.execute({ filePath: '/workspace/app.js', oldString: 'let a = 1', newString: 'let a = 10' }, tools)
    expect(await workspace.readText('/workspace/app.js')).toBe('let a = 10\nlet b = 2\n')
  })
})

describe('recordEdit', () => {
  test('keeps a file changed outside apart from the same file saved in the app, each with its first before and last after', () => {
    let edits = recordEdit([], { file: 'a.txt', before: 'h0', after: 'h1', time: 1 })
    edits = recordEdit(edits, { file: 'a.txt', before: 'h1', after: 'h2', time: 2, by: 'outside' })
    edits = recordEdit(edits, { file: 'a.txt', before: 'h2', after: 'h3', time: 3, by: 'outside' })
    expect(edits).toEqual([
      { file: 'a.txt', before: 'h0', after: 'h1', time: 1 },
      { file: 'a.txt', before: 'h1', after: 'h3', time: 3, by: 'outside' },
    ])
  })
})
