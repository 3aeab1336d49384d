import { describe, expect, it, vi } from 'vitest'
import { updateMessage, updatePart } from './message-store'
import { makeBuilders } from '../testing/fixture-builders'
import {
  children,
  createSession,
  getSession,
  listSessions,
  moveTotals,
  removeSession,
  setArchived,
  setTitle,
  touchSession,
  updateSession,
  usageOfParts,
} from './session-store'
import { makeTestContext } from '../testing/test-context'
import { isDefaultTitle } from '../core/title'

const PROJECT = 'prj_test'

async function collectAll(context: ReturnType<typeof makeTestContext>['context'], input: Parameters<typeof listSessions>[1]) {
  const seen: string[] = []
  let cursor: string | undefined
  do {
    const page = await listSessions(context, { ...input, cursor })
    seen.push(...page.items.map((session) => session.id))
    cursor = page.nextCursor
  } while (cursor)
  return seen
}

describe('sessions', () => {
  it('creates a root session with a default title and announces it', async () => {
    const { context, events } = makeTestContext()
    const info = await createSession(context, { projectID: PROJECT })
    expect(info.id).toMatch(/^ses_/)
    expect(info.title.startsWith('New session - ')).toBe(true)
    expect(isDefaultTitle(info.title)).toBe(true)
    expect(info.parentID).toBeUndefined()
    expect(await getSession(context, info.id)).toEqual(info)
    expect(events).toEqual([{ type: 'session.created', info }])
  })

  it('creates a child in its parent project with a child title, and lists children', async () => {
    const { context, advance } = makeTestContext()
    const parent = await createSession(context, { projectID: PROJECT, directory: '/repo' })
    advance()
    const first = await createSession(context, { projectID: 'prj_other', parentID: parent.id })
    advance()
    const second = await createSession(context, { projectID: PROJECT, parentID: parent.id })
    expect(first.title.startsWith('Child session - ')).toBe(true)
    expect(first).toMatchObject({ projectID: PROJECT, directory: '/repo', parentID: parent.id })
    expect((await children(context, parent.id)).map((child) => child.id).sort()).toEqual([first.id, second.id].sort())
    await expect(createSession(context, { projectID: PROJECT, parentID: 'ses_missing' })).rejects.toThrow(/ses_missing was not found/)
  })

  it('fails to get an unknown session with a named error', async () => {
    const { context } = makeTestContext()
    await expect(getSession(context, 'ses_nope')).rejects.toMatchObject({ name: 'NotFoundError', data: { kind: 'session', id: 'ses_nope' } })
  })

  it('lists newest first by last update and pages through every session exactly once', async () => {
    const { context, advance } = makeTestContext()
    const created: string[] = []
    for (let index = 0; index < 23; index++) {
      created.push((await createSession(context, { projectID: PROJECT })).id)
      // Some share a millisecond so the tie-break is exercised.
      if (index % 3 === 0) advance()
    }
    const all = await collectAll(context, { limit: 5 })
    expect(all).toHaveLength(23)
    expect(new Set(all).size).toBe(23)
    const first = await listSessions(context, { limit: 5 })
    expect(first.items[0]!.id).toBe(created[created.length - 1])
    expect(first.nextCursor).toBeTypeOf('string')
    advance()
    await touchSession(context, created[0]!)
    expect((await listSessions(context, { limit: 1 })).items[0]!.id).toBe(created[0])
  })

  it('keeps projects apart and lists every project without one', async () => {
    const { context } = makeTestContext()
    const mine = await createSession(context, { projectID: PROJECT })
    const theirs = await createSession(context, { projectID: 'prj_other' })
    expect((await listSessions(context, { projectID: PROJECT })).items.map((s) => s.id)).toEqual([mine.id])
    expect((await listSessions(context, {})).items.map((s) => s.id).sort()).toEqual([mine.id, theirs.id].sort())
  })

  it('lists roots only unless asked, hides archived unless asked, and searches titles', async () => {
    const { context, advance } = makeTestContext()
    const root = await createSession(context, { projectID: PROJECT, title: 'Fix the Login bug' })
    advance()
    const child = await createSession(context, { projectID: PROJECT, parentID: root.id })
    advance()
    const archived = await createSession(context, { projectID: PROJECT, title: 'Old login work' })
    await setArchived(context, archived.id, true)
    expect((await listSessions(context, { projectID: PROJECT })).items.map((s) => s.id)).toEqual([root.id])
    expect((await listSessions(context, { projectID: PROJECT, roots: false })).items.map((s) => s.id)).toEqual([child.id, root.id])
    expect((await listSessions(context, { projectID: PROJECT, archived: true })).items.map((s) => s.id)).toEqual([archived.id, root.id])
    expect((await listSessions(context, { projectID: PROJECT, archived: true, search: 'LOGIN' })).items).toHaveLength(2)
    expect((await listSessions(context, { projectID: PROJECT, search: 'login' })).items.map((s) => s.id)).toEqual([root.id])
    await setArchived(context, archived.id, false)
    expect((await listSessions(context, { projectID: PROJECT })).items.map((s) => s.id)).toContain(archived.id)
  })

  it('rejects a bad cursor or page size with a clear message', async () => {
    const { context } = makeTestContext()
    await expect(listSessions(context, { cursor: 'not-a-cursor' })).rejects.toThrow(/paging cursor is not valid/)
    await expect(listSessions(context, { limit: 0 })).rejects.toThrow(/positive integer/)
  })

  it('updates through an editor, validates the result and bumps the update time', async () => {
    const { context, advance, events } = makeTestContext()
    const info = await createSession(context, { projectID: PROJECT })
    const later = advance(1000)
    const updated = await updateSession(context, info.id, (draft) => {
      draft.metadata = { pinned: true }
    })
    expect(updated.metadata).toEqual({ pinned: true })
    expect(updated.time.updated).toBe(later)
    expect(events.at(-1)).toEqual({ type: 'session.updated', info: updated })
    await expect(
      updateSession(context, info.id, (draft) => {
        draft.cost = -5
      }),
    ).rejects.toThrow(/Invalid session: cost/)
    expect((await getSession(context, info.id)).cost).toBe(0)
  })

  it('renames with a trimmed single-line title and refuses an empty one', async () => {
    const { context } = makeTestContext()
    const info = await createSession(context, { projectID: PROJECT })
    expect((await setTitle(context, info.id, '  Refactor\n the parser  ')).title).toBe('Refactor the parser')
    await expect(setTitle(context, info.id, '   ')).rejects.toMatchObject({ name: 'InputError' })
    expect((await setTitle(context, info.id, 'x'.repeat(500))).title).toHaveLength(200)
  })

  it('archives without moving the session to the top', async () => {
    const { context, advance } = makeTestContext()
    const info = await createSession(context, { projectID: PROJECT })
    advance(5000)
    const archived = await setArchived(context, info.id, true)
    expect(archived.time.archived).toBe(info.time.created + 5000)
    expect(archived.time.updated).toBe(info.time.updated)
    expect((await setArchived(context, info.id, false)).time.archived).toBeUndefined()
  })

  it('removes a session with its descendants, their messages and parts, and nothing else', async () => {
    const { context, db, events } = makeTestContext()
    const build = makeBuilders()
    const root = await createSession(context, { projectID: PROJECT })
    const child = await createSession(context, { projectID: PROJECT, parentID: root.id })
    const grandchild = await createSession(context, { projectID: PROJECT, parentID: child.id })
    const other = await createSession(context, { projectID: PROJECT })
    for (const session of [root, child, grandchild, other]) {
      const message = build.user(session.id)
      await updateMessage(context, message)
      await updatePart(context, build.text(message, `hello from ${session.id}`))
    }
    await db.todos.put({ sessionID: child.id, items: [], time: { updated: 1 } })
    await db.inbox.put({ id: 'inp_1', sessionID: grandchild.id, parts: [{ type: 'text', text: 'later' }], time: { created: 1 } })
    await db.outputs.put({ id: 'tool_1', sessionID: root.id, messageID: 'msg_1', partID: 'prt_1', text: 'big', time: { created: 1 } })
    await db.outputs.put({ id: 'tool_2', sessionID: other.id, messageID: 'msg_2', partID: 'prt_2', text: 'big', time: { created: 1 } })
    events.length = 0
    const removed = await removeSession(context, root.id)
    expect(removed.map((s) => s.id)).toEqual([grandchild.id, child.id, root.id])
    expect(events.map((event) => event.type)).toEqual(['session.deleted', 'session.deleted', 'session.deleted'])
    expect(await db.sessions.toCollection().primaryKeys()).toEqual([other.id])
    expect((await db.messages.toArray()).map((m) => m.sessionID)).toEqual([other.id])
    expect((await db.parts.toArray()).map((p) => p.sessionID)).toEqual([other.id])
    expect(await db.todos.count()).toBe(0)
    expect(await db.inbox.count()).toBe(0)
    expect((await db.outputs.toArray()).map((output) => output.id)).toEqual(['tool_2'])
    await expect(removeSession(context, root.id)).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('leaves everything in place when the cascade fails half way', async () => {
    const { context, db } = makeTestContext()
    const build = makeBuilders()
    const root = await createSession(context, { projectID: PROJECT })
    await createSession(context, { projectID: PROJECT, parentID: root.id })
    const message = build.user(root.id)
    await updateMessage(context, message)
    await updatePart(context, build.text(message, 'keep me'))
    const failing = vi.spyOn(db.sessions, 'bulkDelete').mockImplementation(() => {
      throw new Error('disk went away')
    })
    await expect(removeSession(context, root.id)).rejects.toThrow('disk went away')
    failing.mockRestore()
    expect(await db.sessions.count()).toBe(2)
    expect(await db.messages.count()).toBe(1)
    expect(await db.parts.count()).toBe(1)
  })
})

describe('session totals', () => {
  it('sums the step-finish parts and moves totals without going below zero or gathering float dust', () => {
    const build = makeBuilders()
    const session = build.session()
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id)
    const usage = usageOfParts([build.text(reply, 'hi'), build.stepFinish(reply, 0.1, 10, 5), build.stepFinish(reply, 0.2, 20, 1)])
    expect(usage).toEqual({ cost: expect.closeTo(0.3), tokens: { input: 30, output: 6, reasoning: 0, cache: { read: 0, write: 0 } } })
    const added = moveTotals({ ...session, cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }, usage, 1)
    expect(added.cost).toBe(0.3)
    const removed = moveTotals({ ...session, ...added }, { ...usage, tokens: { ...usage.tokens, input: 100 } }, -1)
    expect(removed).toEqual({ cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } })
  })
})
