import { describe, expect, it } from 'vitest'
import { textReply, toolReply, type ScriptedReply } from '../testing/scripted-model'
import { SCRIPTED_MODEL as MODEL, startScriptedService } from './testing/scripted-service'

const encode = (text: string) => new TextEncoder().encode(text)

/** The worker service over the wire, with a scripted model and a project holding a.txt and notes.txt. */
async function setup(replies: ScriptedReply[]) {
  const { api, events, scripted, untilIdle } = await startScriptedService(replies, 'history')
  const { project } = await api.createProject({
    name: 'Demo',
    source: { type: 'files', files: [{ path: 'a.txt', data: encode('v0\n') }, { path: 'notes.txt', data: encode('mine\n') }] },
  })
  await api.openProject(project.id)
  const created = await api.createSession({ projectID: project.id })
  // A titled session: the title call would otherwise take a scripted reply.
  const session = await api.renameSession(created.id, 'Work')
  /** Sends a prompt and waits until its turn is over. */
  const prompt = (text: string) => untilIdle(() => api.prompt({ sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL }))
  const read = async (path: string) => {
    const files = await api.listFiles({ projectID: project.id, path: '/workspace' })
    if (!files.some((file) => file.path === `/workspace/${path}`)) return undefined
    const content = await api.readFile({ projectID: project.id, path })
    return content.type === 'text' ? content.text : '(binary)'
  }
  const messages = async (sessionID = session.id) => (await api.pageMessages({ sessionID, limit: 100 })).messages
  return { api, events, scripted, project, session, prompt, read, messages, untilIdle }
}

/** A step that writes files with one shell command (the write tool would want them read first). */
const writeTurn = (id: string, files: Record<string, string>): ScriptedReply =>
  toolReply([
    {
      id,
      name: 'bash',
      input: {
        command: Object.entries(files)
          .map(([path, content]) => `printf '${content.replace(/\n/g, '\\n')}' > ${path}`)
          .join(' && '),
        description: 'Write files',
      },
    },
  ])

describe('history operations through the worker', () => {
  it('reverts files and conversation, unreverts both, and a prompt after a revert removes the hidden turn', async () => {
    const test = await setup([
      writeTurn('w1', { 'a.txt': 'v1\n' }),
      textReply('first done'),
      writeTurn('w2', { 'a.txt': 'v2\n', 'made.txt': 'new\n' }),
      textReply('second done'),
      textReply('third done'),
    ])
    const { api, session } = test
    await test.prompt('first')
    const second = await test.prompt('second')
    if (second.status !== 'stored') throw new Error('expected a stored prompt')
    expect(await test.read('a.txt')).toBe('v2\n')

    const preview = await api.revertPreview({ sessionID: session.id, messageID: second.messageID })
    expect(preview).toEqual({
      messageID: second.messageID,
      messages: 3,
      files: [
        { path: 'a.txt', change: 'restore' },
        { path: 'made.txt', change: 'delete' },
      ],
    })
    test.events.length = 0
    const reverted = await api.revertSession({ sessionID: session.id, messageID: second.messageID, files: true })
    expect(reverted.revert).toMatchObject({ messageID: second.messageID, files: ['a.txt', 'made.txt'] })
    expect(await test.read('a.txt')).toBe('v1\n')
    expect(await test.read('made.txt')).toBeUndefined()
    expect(await test.read('notes.txt')).toBe('mine\n')
    expect(test.events).toContainEqual({ type: 'workspace.changed', projectID: test.project.id, change: { type: 'remove', path: '/workspace/made.txt' } })
    expect(test.events).toContainEqual({ type: 'workspace.changed', projectID: test.project.id, change: { type: 'write', path: '/workspace/a.txt' } })
    // Resuming would answer a hidden history: refused with a reason.
    await expect(api.resume(session.id)).rejects.toMatchObject({ name: 'InputError', data: { field: 'revert' } })

    await api.unrevertSession(session.id)
    expect(await test.read('a.txt')).toBe('v2\n')
    expect(await test.read('made.txt')).toBe('new\n')

    await api.revertSession({ sessionID: session.id, messageID: second.messageID, files: true })
    expect((await test.messages()).length).toBe(6)
    test.events.length = 0
    await test.prompt('third')
    const history = await test.messages()
    expect(history.map((entry) => entry.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join())).toEqual([
      'first',
      '',
      'first done',
      'third',
      'third done',
    ])
    expect(test.events.filter((event) => event.type === 'message.removed')).toHaveLength(3)
    expect((await api.getSession(session.id)).revert).toBeUndefined()
    // The files stay as the revert left them.
    expect(await test.read('a.txt')).toBe('v1\n')
    // The diffs of the session leave the removed turn out.
    expect((await api.sessionDiffs(session.id)).map((diff) => diff.file)).toEqual(['a.txt'])
  })

  it('forks at an assistant reply into a project holding the files of that point, and lists the forks', async () => {
    const test = await setup([writeTurn('w1', { 'a.txt': 'v1\n' }), textReply('first done'), writeTurn('w2', { 'a.txt': 'v2\n' }), textReply('second done')])
    const { api, session } = test
    await test.prompt('first')
    await test.prompt('second')
    const history = await test.messages()
    // Branching "at" the first turn's last reply keeps it: the cut is at the message after it.
    const outcome = await api.forkSession({ sessionID: session.id, messageID: history[3]!.info.id })
    expect(outcome).toMatchObject({ newProject: true, project: { name: 'Demo (fork)' }, session: { title: 'Work (fork #1)' } })
    expect((await test.messages(outcome.session.id)).map((entry) => entry.info.role)).toEqual(['user', 'assistant', 'assistant'])
    const forkedFile = await api.readFile({ projectID: outcome.project.id, path: 'a.txt' })
    expect(forkedFile).toMatchObject({ text: 'v1\n' })
    expect(await test.read('a.txt')).toBe('v2\n')
    expect((await api.forks(session.id)).forks.map((fork) => fork.id)).toEqual([outcome.session.id])
    expect((await api.forks(outcome.session.id)).origin?.id).toBe(session.id)
    // The whole session, forked, has the files as they are now: same project.
    const whole = await api.forkSession({ sessionID: session.id })
    expect(whole).toMatchObject({ newProject: false, project: { id: test.project.id } })
  })

  it('refuses to revert or unrevert while the session runs', async () => {
    const test = await setup([writeTurn('w1', { 'a.txt': 'v1\n' }), textReply('done'), { hangAfter: [{ type: 'stream-start', warnings: [] }] }])
    const { api, session } = test
    const first = await test.prompt('first')
    if (first.status !== 'stored') throw new Error('expected a stored prompt')
    await api.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'hang' }], model: MODEL })
    await expect.poll(() => test.events.some((event) => event.type === 'session.status' && event.status.type === 'busy' && test.scripted.remaining() === 0)).toBe(true)
    await expect(api.revertSession({ sessionID: session.id, messageID: first.messageID, files: true })).rejects.toMatchObject({
      name: 'BusyError',
      data: { sessionID: session.id, action: 'revert it' },
    })
    await expect(api.unrevertSession(session.id)).rejects.toMatchObject({ name: 'BusyError' })
    expect(await test.read('a.txt')).toBe('v1\n')
    await api.cancel(session.id)
    // Once the run has stopped, the same revert goes through.
    const revert = () => api.revertSession({ sessionID: session.id, messageID: first.messageID, files: true })
    await expect.poll(() => revert().then(() => 'reverted', (error: Error) => error.name)).toBe('reverted')
    expect(await test.read('a.txt')).toBe('v0\n')
  })

  it('keeps an imported session read-only and lets the user continue it in a fork that runs', async () => {
    const test = await setup([textReply('answer'), textReply('in the fork')])
    const { api, session } = test
    await test.prompt('question')
    const file = await api.exportSession({ sessionID: session.id })
    const imported = await api.importFile({ data: await file.data.text() })
    if (imported.kind !== 'session') throw new Error('expected a session import')
    const importedID = imported.session.id
    const refused = api.prompt({ sessionID: importedID, parts: [{ type: 'text', text: 'more' }], model: MODEL })
    await expect(refused).rejects.toMatchObject({ name: 'InputError', message: expect.stringMatching(/read-only.*Continue in a fork/) })
    await expect(api.resume(importedID)).rejects.toMatchObject({ name: 'InputError' })
    const first = (await test.messages(importedID))[0]!.info.id
    await expect(api.revertSession({ sessionID: importedID, messageID: first, files: false })).rejects.toMatchObject({ name: 'InputError' })
    await expect(api.compactSession({ sessionID: importedID })).rejects.toMatchObject({ name: 'InputError' })
    expect(await test.messages(importedID)).toHaveLength(2)
    const fork = await api.forkSession({ sessionID: importedID })
    expect(fork.session.metadata?.import).toBeUndefined()
    await test.untilIdle(() => api.prompt({ sessionID: fork.session.id, parts: [{ type: 'text', text: 'more' }], model: MODEL }))
    expect((await test.messages(fork.session.id)).map((entry) => entry.info.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })
})
