import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { loadHistory, type MessageWithParts } from '../store/message-store'
import {
  findRevertPoint,
  finishRevert,
  hiddenMessages,
  hiddenPatches,
  plannedChanges,
  revertPreview,
  revertSession,
  unrevertSession,
  visibleHistory,
} from './revert'
import type { Message, Part, PartOf } from '../core/schema'
import { makeTestContext } from '../testing/test-context'
import { countReads } from '../testing/count-reads'
import { writeFixture } from '../store/fixture'
import { getSession } from '../store/session-store'
import { makeFileSession } from '../testing/file-turns'

/** user → assistant (step-start, text, tool, step-finish) → user → assistant (step-start, reasoning, text). */
function conversation() {
  const build = makeBuilders()
  const session = build.session()
  const part = <T extends Part['type']>(message: { id: string; sessionID: string }, type: T, extra: object = {}) =>
    ({ id: build.ids.ascending('part', build.now()), sessionID: message.sessionID, messageID: message.id, type, ...extra }) as PartOf<T>
  const first = build.user(session.id)
  const reply = build.assistant(session.id, first.id)
  const second = build.user(session.id)
  const answer = build.assistant(session.id, second.id)
  const parts = {
    firstText: build.text(first, 'make a file'),
    replyStart: part(reply, 'step-start'),
    replyText: build.text(reply, 'writing it'),
    replyTool: part(reply, 'tool', { callID: 'c1', tool: 'write', state: { status: 'pending', input: {}, raw: '' } }),
    replyFinish: build.stepFinish(reply, 0, 1, 1),
    replyPatch: part(reply, 'patch', { hash: 's1', files: ['a.txt'] }),
    secondText: build.text(second, 'again'),
    answerStart: part(answer, 'step-start'),
    answerReasoning: part(answer, 'reasoning', { text: 'hmm', time: { start: 1 } }),
    answerText: build.text(answer, 'ok'),
    answerPatch: part(answer, 'patch', { hash: 's2', files: ['a.txt', 'b.txt'] }),
  }
  const history: MessageWithParts[] = [
    { info: first, parts: [parts.firstText] },
    { info: reply, parts: [parts.replyStart, parts.replyText, parts.replyTool, parts.replyFinish, parts.replyPatch] },
    { info: second, parts: [parts.secondText] },
    { info: answer, parts: [parts.answerStart, parts.answerReasoning, parts.answerText, parts.answerPatch] },
  ]
  return { history, first, reply, second, answer, parts }
}

describe('revert points', () => {
  it('reverts a user message as a whole', () => {
    const { history, second } = conversation()
    expect(findRevertPoint(history, { messageID: second.id })).toEqual({ messageID: second.id })
  })

  it('reverts an assistant reply as a whole back to the prompt it answered', () => {
    const { history, first, reply, answer, second, parts } = conversation()
    expect(findRevertPoint(history, { messageID: reply.id })).toEqual({ messageID: first.id })
    expect(findRevertPoint(history, { messageID: answer.id })).toEqual({ messageID: second.id })
    // A part with nothing said before it in its message is the whole message too.
    expect(findRevertPoint(history, { messageID: answer.id, partID: parts.answerReasoning.id })).toEqual({ messageID: second.id })
  })

  it('reverts part of a reply when text or a tool call came before the part', () => {
    const { history, reply, answer, parts } = conversation()
    expect(findRevertPoint(history, { messageID: reply.id, partID: parts.replyTool.id })).toEqual({ messageID: reply.id, partID: parts.replyTool.id })
    expect(findRevertPoint(history, { messageID: answer.id, partID: parts.answerPatch.id })).toEqual({ messageID: answer.id, partID: parts.answerPatch.id })
  })

  it('says which message or part it could not find', () => {
    const { history } = conversation()
    expect(() => findRevertPoint(history, { messageID: 'msg_nope' })).toThrow(expect.objectContaining({ name: 'NotFoundError', data: { kind: 'message', id: 'msg_nope' } }))
    expect(() => findRevertPoint(history, { messageID: 'msg_nope', partID: 'prt_nope' })).toThrow(expect.objectContaining({ data: { kind: 'part', id: 'prt_nope' } }))
  })

  it('hides what follows the point, and the patches in it', () => {
    const { history, first, reply, parts } = conversation()
    const partial = { messageID: reply.id, partID: parts.replyTool.id }
    const visible = visibleHistory(history, partial)
    expect(visible.map((entry) => entry.info.id)).toEqual([first.id, reply.id])
    expect(visible[1]!.parts.map((part) => part.type)).toEqual(['step-start', 'text'])
    expect(hiddenMessages(history, partial)).toHaveLength(2)
    expect(hiddenPatches(history, partial)).toEqual([
      { hash: 's1', files: ['a.txt'] },
      { hash: 's2', files: ['a.txt', 'b.txt'] },
    ])
    expect(hiddenPatches(history, { messageID: history[2]!.info.id })).toEqual([{ hash: 's2', files: ['a.txt', 'b.txt'] }])
  })
})

describe('planned file changes', () => {
  it('lists only files whose content would change, deleting those that did not exist', () => {
    const targets = new Map<string, string | undefined>([
      ['changed.txt', 'h-old'],
      ['created.txt', undefined],
      ['same.txt', 'h-same'],
      ['gone-already.txt', undefined],
      ['big.bin', 'large:5000000:1'],
    ])
    const current = { 'changed.txt': 'h-new', 'created.txt': 'h-c', 'same.txt': 'h-same', 'big.bin': 'large:6000000:2' }
    expect(plannedChanges({ current, targets })).toEqual([
      { path: 'changed.txt', change: 'restore' },
      { path: 'created.txt', change: 'delete' },
    ])
  })

  it('counts from the files as they were before a pending revert', () => {
    const targets = new Map<string, string | undefined>([['a.txt', 'h1']])
    // The pending revert put a.txt at h1 already and deleted b.txt, which the new revert leaves alone.
    const current = { 'a.txt': 'h1' }
    const undo = { files: ['a.txt', 'b.txt'], manifest: { 'a.txt': 'h2', 'b.txt': 'hb' } }
    expect(plannedChanges({ current, targets, undo })).toEqual([{ path: 'b.txt', change: 'restore' }])
  })
})

/** Two turns over files: the first edits a.txt, the second edits it again and creates new.txt. */
async function twoTurns() {
  const test = await makeFileSession({ 'a.txt': 'v0\n', 'keep.txt': 'keep\n' })
  const one = await test.turn('first', (workspace) => workspace.writeFile('a.txt', 'v1\n'))
  const two = await test.turn('second', async (workspace) => {
    await workspace.writeFile('a.txt', 'v2\n')
    await workspace.writeFile('new.txt', 'new\n')
  })
  // An edit the user made outside any turn: no patch names it, so no revert may touch it.
  await test.workspace.writeFile('keep.txt', 'edited by the user\n')
  return { ...test, one, two }
}

describe('reverting a session', () => {
  it('previews the hidden messages and the files that would change', async () => {
    const test = await twoTurns()
    const preview = await revertPreview(test.context, { sessionID: test.session.id, messageID: test.two.user.id }, test.sessionFiles)
    expect(preview).toEqual({
      messageID: test.two.user.id,
      messages: 2,
      files: [
        { path: 'a.txt', change: 'restore' },
        { path: 'new.txt', change: 'delete' },
      ],
    })
    // A file the user already put back by hand is not listed.
    await test.workspace.writeFile('a.txt', 'v1\n')
    const again = await revertPreview(test.context, { sessionID: test.session.id, messageID: test.two.assistant.id }, test.sessionFiles)
    expect(again.files).toEqual([{ path: 'new.txt', change: 'delete' }])
    expect(await test.files()).toEqual({ 'a.txt': 'v1\n', 'keep.txt': 'edited by the user\n', 'new.txt': 'new\n' })
  })

  it('restores the changed files one by one, deletes created ones, and leaves other edits alone; unrevert puts them back', async () => {
    const test = await twoTurns()
    const reverted = await revertSession(test.context, { sessionID: test.session.id, messageID: test.two.user.id, files: true }, test.sessionFiles)
    expect(reverted.revert).toMatchObject({ messageID: test.two.user.id, files: ['a.txt', 'new.txt'], snapshot: expect.any(String) })
    expect(await test.files()).toEqual({ 'a.txt': 'v1\n', 'keep.txt': 'edited by the user\n' })
    // Messages are only hidden until the next prompt.
    expect(await loadHistory(test.context, test.session.id)).toHaveLength(4)
    expect(test.events.filter((event) => event.type === 'session.updated').at(-1)).toMatchObject({ info: { revert: { messageID: test.two.user.id } } })
    // The diff view leaves the reverted turn out.
    expect(reverted.summary?.diffs?.map((diff) => diff.file)).toEqual(['a.txt'])

    const restored = await unrevertSession(test.context, test.session.id, test.sessionFiles)
    expect(restored.revert).toBeUndefined()
    expect(await test.files()).toEqual({ 'a.txt': 'v2\n', 'keep.txt': 'edited by the user\n', 'new.txt': 'new\n' })
    expect(restored.summary?.diffs?.map((diff) => diff.file)).toEqual(['a.txt', 'new.txt'])
  })

  it('reverts an assistant reply with its prompt, back to the files before that turn', async () => {
    const test = await twoTurns()
    const reverted = await revertSession(test.context, { sessionID: test.session.id, messageID: test.one.assistant.id, files: true }, test.sessionFiles)
    expect(reverted.revert).toMatchObject({ messageID: test.one.user.id, files: ['a.txt', 'new.txt'] })
    expect(await test.files()).toEqual({ 'a.txt': 'v0\n', 'keep.txt': 'edited by the user\n' })
  })

  it('reverts the conversation only, leaving every file as it is', async () => {
    const test = await twoTurns()
    const before = await test.files()
    const reverted = await revertSession(test.context, { sessionID: test.session.id, messageID: test.two.user.id, files: false }, test.sessionFiles)
    expect(reverted.revert).toEqual({ messageID: test.two.user.id })
    expect(await test.files()).toEqual(before)
    const restored = await unrevertSession(test.context, test.session.id, test.sessionFiles)
    expect(restored.revert).toBeUndefined()
    expect(await test.files()).toEqual(before)
  })

  it('computes a second revert from the files as they were before the first, both ways', async () => {
    const test = await twoTurns()
    const sessionID = test.session.id
    await revertSession(test.context, { sessionID, messageID: test.two.user.id, files: true }, test.sessionFiles)
    const further = await revertSession(test.context, { sessionID, messageID: test.one.user.id, files: true }, test.sessionFiles)
    expect(await test.files()).toEqual({ 'a.txt': 'v0\n', 'keep.txt': 'edited by the user\n' })
    expect(further.revert).toMatchObject({ messageID: test.one.user.id, files: ['a.txt', 'new.txt'] })
    // Moving the revert later again goes through the un-reverted files too.
    await revertSession(test.context, { sessionID, messageID: test.two.user.id, files: true }, test.sessionFiles)
    expect(await test.files()).toEqual({ 'a.txt': 'v1\n', 'keep.txt': 'edited by the user\n' })
    await unrevertSession(test.context, sessionID, test.sessionFiles)
    expect(await test.files()).toEqual({ 'a.txt': 'v2\n', 'keep.txt': 'edited by the user\n', 'new.txt': 'new\n' })
  })

  it('keeps a pending revert of files undoable when the conversation is reverted further', async () => {
    const test = await twoTurns()
    const sessionID = test.session.id
    await revertSession(test.context, { sessionID, messageID: test.two.user.id, files: true }, test.sessionFiles)
    const further = await revertSession(test.context, { sessionID, messageID: test.one.user.id, files: false }, test.sessionFiles)
    expect(further.revert).toMatchObject({ messageID: test.one.user.id, files: ['a.txt', 'new.txt'] })
    expect(await test.files()).toEqual({ 'a.txt': 'v1\n', 'keep.txt': 'edited by the user\n' })
    await unrevertSession(test.context, sessionID, test.sessionFiles)
    expect(await test.files()).toEqual({ 'a.txt': 'v2\n', 'keep.txt': 'edited by the user\n', 'new.txt': 'new\n' })
  })
})

describe('reverting without stored snapshots', () => {
  it('leaves alone what steps whose snapshot is not stored changed, in the preview and the revert alike', async () => {
    const test = await twoTurns()
    // As in a session imported without its snapshots: the second step's pre-step snapshot is unknown here.
    await test.db.snapshots.delete(test.two.patch!.hash)
    const input = { sessionID: test.session.id, messageID: test.one.user.id }
    expect((await revertPreview(test.context, input, test.sessionFiles)).files).toEqual([{ path: 'a.txt', change: 'restore' }])
    const reverted = await revertSession(test.context, { ...input, files: true }, test.sessionFiles)
    expect(reverted.revert?.files).toEqual(['a.txt'])
    expect(await test.files()).toEqual({ 'a.txt': 'v0\n', 'keep.txt': 'edited by the user\n', 'new.txt': 'new\n' })
  })
})

describe('finishing a revert', () => {
  it('removes the hidden messages with their parts and saved outputs, and moves the totals', async () => {
    const test = await twoTurns()
    const sessionID = test.session.id
    await test.db.outputs.bulkAdd([
      { id: 'tool_gone', sessionID, messageID: test.two.assistant.id, partID: test.two.reply.id, text: 'long', time: { created: 1 } },
      { id: 'tool_kept', sessionID, messageID: test.one.assistant.id, partID: test.one.reply.id, text: 'long', time: { created: 1 } },
    ])
    await revertSession(test.context, { sessionID, messageID: test.two.assistant.id, files: false })
    const before = await getSession(test.context, sessionID)
    test.events.length = 0
    const finished = await finishRevert(test.context, sessionID)
    expect(finished?.revert).toBeUndefined()
    const history = await loadHistory(test.context, sessionID)
    expect(history.map((entry) => entry.info.id)).toEqual([test.one.user.id, test.one.assistant.id])
    expect(await test.db.parts.where('sessionID').equals(sessionID).count()).toBe(history.flatMap((entry) => entry.parts).length)
    expect(await test.db.outputs.toCollection().primaryKeys()).toEqual(['tool_kept'])
    expect(finished?.cost).toBeCloseTo((before.cost ?? 0) - test.two.stepFinish.cost)
    expect(test.events.map((event) => event.type)).toEqual(['message.removed', 'message.removed', 'session.updated'])
    expect(await finishRevert(test.context, sessionID)).toBeUndefined()
  })

  it('removes only the reverted part and those after it from a partly reverted message', async () => {
    const test = await twoTurns()
    const sessionID = test.session.id
    const reverted = await revertSession(test.context, { sessionID, messageID: test.two.assistant.id, partID: test.two.stepFinish.id, files: true }, test.sessionFiles)
    expect(reverted.revert).toMatchObject({ messageID: test.two.assistant.id, partID: test.two.stepFinish.id })
    test.events.length = 0
    await finishRevert(test.context, sessionID)
    const history = await loadHistory(test.context, sessionID)
    expect(history.map((entry) => entry.info.id)).toEqual([test.one.user.id, test.one.assistant.id, test.two.user.id, test.two.assistant.id])
    expect(history.at(-1)!.parts.map((part) => part.type)).toEqual(['step-start', 'text'])
    expect(test.events.filter((event) => event.type === 'part.removed').map((event) => event.type === 'part.removed' && event.partID)).toEqual([
      test.two.stepFinish.id,
      test.two.patch!.id,
    ])
  })
})

describe('a revert preview in a long session', () => {
  it('reads only from the target on: nothing of the turns before it', async () => {
    const test = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const messages: Message[] = []
    const parts: Part[] = []
    for (let index = 0; index < 500; index++) {
      const user = build.user(session.id)
      const reply = build.assistant(session.id, user.id)
      messages.push(user, reply)
      parts.push(build.text(user, `question ${index}`), build.text(reply, `answer ${index}`))
    }
    await writeFixture(test.context, { sessions: [session], messages, parts })
    const read = await countReads(test.db)
    const target = messages.at(-1)!
    const preview = await revertPreview(test.context, { sessionID: session.id, messageID: target.id })
    // A reply goes back to the prompt it answers: both are hidden.
    expect(preview).toEqual({ messageID: messages.at(-2)!.id, messages: 2, files: [] })
    expect(read.parts.size).toBe(2)
    expect([...read.messages].filter((id) => id < messages.at(-2)!.id)).toEqual([])
  })
})
