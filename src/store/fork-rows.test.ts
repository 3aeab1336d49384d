import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import type { Project, WorkspaceEntry } from '../core/schema'
import { addFork, forksOf, type ForkRows } from './fork-rows'
import { loadHistory } from './message-store'

function forkRows(): ForkRows {
  const build = makeBuilders()
  const now = build.now()
  const project: Project = { id: 'prj_fork', name: 'Demo (fork)', directory: '/workspace', origin: { type: 'empty' }, trust: { type: 'trusted', time: now }, time: { created: now, updated: now } }
  const file: WorkspaceEntry = { type: 'file', projectID: project.id, path: '/a.txt', hash: 'a'.repeat(64), size: 1, modified: now }
  const session = build.session({ projectID: project.id, fork: { sessionID: 'ses_origin' } })
  const user = build.user(session.id)
  return {
    project: { project, files: [file] },
    session,
    messages: [user],
    parts: [build.text(user, 'copied')],
    outputs: [{ id: 'tool_copy', sessionID: session.id, messageID: user.id, partID: 'prt_copy', text: 'whole', time: { created: now } }],
  }
}

describe('fork rows', () => {
  it('writes a fork whole: its project and files, session, history and outputs', async () => {
    const { context, db } = makeTestContext()
    const rows = forkRows()
    expect(await addFork(context, rows)).toEqual(rows)
    expect(await db.projects.get('prj_fork')).toEqual(rows.project!.project)
    expect(await db.files.where('projectID').equals('prj_fork').toArray()).toEqual(rows.project!.files)
    expect(await loadHistory(context, rows.session.id)).toEqual([{ info: rows.messages[0], parts: rows.parts }])
    expect(await db.outputs.get('tool_copy')).toEqual(rows.outputs[0])
    expect(await forksOf(context, 'ses_origin')).toEqual([rows.session])
  })

  it('writes nothing when one row of the fork fails its schema', async () => {
    const { context, db } = makeTestContext()
    const rows = forkRows()
    const broken = { ...rows, outputs: [{ ...rows.outputs[0]!, id: 'not_an_output' }] }
    await expect(addFork(context, broken)).rejects.toMatchObject({ name: 'ValidationError', data: { shape: 'tool output' } })
    expect(await Promise.all([db.projects.count(), db.files.count(), db.sessions.count(), db.messages.count(), db.parts.count()])).toEqual([0, 0, 0, 0, 0])
  })
})
