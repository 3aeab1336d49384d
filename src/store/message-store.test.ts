import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import type { Message, Part } from '../core/schema'
import { writeFixture } from './fixture'
import { addMessageIfCurrent, getMessage, pageMessages, partDelta, putMessagesAndParts, removeMessage, removePart, updateMessage, updatePart } from './message-store'
import { createSession, getSession } from './session-store'
import { makeTestContext } from '../testing/test-context'
import { countRoundTrips } from '../testing/count-round-trips'

describe('message paging', () => {
  async function seeded(count: number) {
    const test = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const messages: Message[] = []
    const parts: Part[] = []
    for (let index = 0; index < count; index++) {
      const message = index % 2 === 0 ? build.user(session.id) : build.assistant(session.id, messages[index - 1]!.id)
      // Several messages share a millisecond, as they do when a fast model streams.
      if (index % 4 !== 0) message.time.created = messages[index - 1]!.time.created
      messages.push(message)
      parts.push(build.text(message, `message ${index}`), build.text(message, `second part ${index}`))
    }
    await writeFixture(test.context, { sessions: [session], messages, parts })
    return { ...test, session, messages, parts }
  }

  it('returns every message exactly once, newest page first, each page in chronological order', async () => {
    const { context, session, messages } = await seeded(123)
    const pages: string[][] = []
    let before: string | undefined
    do {
      const page = await pageMessages(context, { sessionID: session.id, limit: 10, before })
      const ids = page.messages.map((message) => message.info.id)
      expect(ids).toEqual([...ids].sort())
      pages.push(ids)
      before = page.nextCursor
    } while (before)
    expect(pages).toHaveLength(13)
    expect(pages[0]).toEqual(messages.slice(-10).map((message) => message.id))
    expect(pages.reverse().flat()).toEqual(messages.map((message) => message.id))
  })

  it('loads the parts of a page in order with their messages', async () => {
    const { context, session, messages } = await seeded(6)
    const page = await pageMessages(context, { sessionID: session.id, limit: 3 })
    expect(page.messages.map(({ info }) => info.id)).toEqual(messages.slice(3).map((message) => message.id))
    for (const [index, { parts }] of page.messages.entries()) {
      expect(parts.map((part) => (part.type === 'text' ? part.text : ''))).toEqual([
        `message ${index + 3}`,
        `second part ${index + 3}`,
      ])
    }
  })

  it('has no next cursor when the history fits one page, and an empty page for an empty session', async () => {
    const { context, session } = await seeded(4)
    const page = await pageMessages(context, { sessionID: session.id, limit: 4 })
    expect(page.messages).toHaveLength(4)
    expect(page.nextCursor).toBeUndefined()
    const empty = await createSession(context, { projectID: 'prj_test' })
    expect(await pageMessages(context, { sessionID: empty.id })).toEqual({ messages: [] })
  })

  it('says a session does not exist instead of returning an empty page', async () => {
    const { context } = makeTestContext()
    await expect(pageMessages(context, { sessionID: 'ses_gone' })).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('refuses a tampered cursor', async () => {
    const { context, session } = await seeded(2)
    await expect(pageMessages(context, { sessionID: session.id, before: 'eyJ4IjoxfQ' })).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'cursor' },
    })
  })
})

describe('message and part writes', () => {
  it('stores a message and its parts, announcing each write', async () => {
    const { context, events } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    await updateMessage(context, user)
    const part = build.text(user, 'hello')
    await updatePart(context, part)
    expect(await getMessage(context, user.id)).toEqual({ info: user, parts: [part] })
    expect(events.slice(1)).toEqual([
      { type: 'message.updated', info: user },
      { type: 'part.updated', part },
    ])
  })

  it('rejects a message for a missing session and a part for a missing message, writing nothing', async () => {
    const { context, db } = makeTestContext()
    const build = makeBuilders()
    const user = build.user('ses_missing')
    await expect(updateMessage(context, user)).rejects.toMatchObject({ name: 'NotFoundError' })
    await expect(updatePart(context, build.text(user, 'x'))).rejects.toMatchObject({ name: 'NotFoundError' })
    await expect(updatePart(context, { ...build.text(user, 'x'), type: 'nope' } as never)).rejects.toMatchObject({
      name: 'ValidationError',
    })
    expect(await db.messages.count()).toBe(0)
    expect(await db.parts.count()).toBe(0)
  })

  it('stores messages and parts together, validated, and none of them when one row is invalid', async () => {
    const { context, db, events } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    const part = build.text(user, 'hello')
    await expect(putMessagesAndParts(context, { messages: [user], parts: [part, { ...part, type: 'nope' } as never] })).rejects.toMatchObject({
      name: 'ValidationError',
      data: { shape: 'part' },
    })
    expect(await db.messages.count()).toBe(0)
    expect(await putMessagesAndParts(context, { messages: [user], parts: [part] })).toEqual({ messages: [user], parts: [part] })
    expect(await getMessage(context, user.id)).toEqual({ info: user, parts: [part] })
    // Unannounced: the caller knows what it repaired and says so.
    expect(events).toHaveLength(1)
  })

  it('keeps the session totals equal to the sum of its step-finish parts', async () => {
    const { context } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    await updateMessage(context, user)
    const first = build.assistant(session.id, user.id)
    const second = build.assistant(session.id, user.id)
    await updateMessage(context, first)
    await updateMessage(context, second)
    const step = build.stepFinish(first, 0.1, 1000, 200)
    await updatePart(context, step)
    await updatePart(context, build.stepFinish(second, 0.2, 3000, 50))
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.3, tokens: { input: 4000, output: 250 } })
    // Rewriting a step replaces its contribution instead of adding it again.
    await updatePart(context, { ...step, cost: 0.15, tokens: { ...step.tokens, input: 1100 } })
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.35, tokens: { input: 4100, output: 250 } })
    await removeMessage(context, second.id)
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.15, tokens: { input: 1100, output: 200 } })
    await removePart(context, step.id)
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0, tokens: { input: 0, output: 0 } })
  })

  it('removes a message with its parts and announces both', async () => {
    const { context, db, events } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    await updateMessage(context, user)
    await updatePart(context, build.text(user, 'a'))
    await removeMessage(context, user.id)
    expect(await db.parts.count()).toBe(0)
    expect(events.at(-1)).toEqual({ type: 'message.removed', sessionID: session.id, messageID: user.id })
  })

  it('sends text deltas live without writing them', async () => {
    const { context, db, events } = makeTestContext()
    partDelta(context, { sessionID: 'ses_a', messageID: 'msg_a', partID: 'prt_a', delta: 'He' })
    expect(events).toEqual([{ type: 'part.delta', field: 'text', sessionID: 'ses_a', messageID: 'msg_a', partID: 'prt_a', delta: 'He' }])
    expect(await db.parts.count()).toBe(0)
  })
})

describe('a step’s reply, added only if the history is as the step saw it', () => {
  it('is stored in two round trips to storage (the session and the newer messages read together), and refused when a message came in', async () => {
    const { context, db } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    await updateMessage(context, user)
    const since = { after: [user.time.created, user.id] as const, known: [] }
    const trips = await countRoundTrips(db)
    trips.trips = 0
    expect(await addMessageIfCurrent(context, build.assistant(session.id, user.id), since)).toBe(true)
    expect(trips.trips).toBe(2)
    // The reply just stored is newer than what this step saw.
    expect(await addMessageIfCurrent(context, build.assistant(session.id, user.id), since)).toBe(false)
  })
})
