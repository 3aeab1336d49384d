import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { removePart, updateMessage } from './message-store'
import { partsOf, putPart, putParts, putPartsAnnounced, rewriteParts } from './parts'
import { countRoundTrips } from '../testing/count-round-trips'
import { createSession, getSession } from './session-store'
import type { Part } from '../core/schema'

async function conversation() {
  const test = makeTestContext()
  const build = makeBuilders()
  const session = await createSession(test.context, { projectID: 'prj_test' })
  const user = build.user(session.id)
  const reply = build.assistant(session.id, user.id)
  await updateMessage(test.context, user)
  await updateMessage(test.context, reply)
  return { ...test, build, session, user, reply }
}

describe('part writes', () => {
  it('refuses a whole batch when one row fails its schema, writing none of it', async () => {
    const { context, db, build, reply } = await conversation()
    const good = build.text(reply, 'kept back')
    const bad = { ...build.text(reply, 'broken'), messageID: 'ses_not_a_message' }
    await expect(putParts(context, [good, bad])).rejects.toMatchObject({ name: 'ValidationError', data: { shape: 'part' } })
    expect(await db.parts.count()).toBe(0)
  })

  it('moves the session totals for step-finish rows written in a batch, as a single write does', async () => {
    const { context, build, session, reply } = await conversation()
    const step = build.stepFinish(reply, 0.25, 1000, 100)
    await putParts(context, [build.text(reply, 'answer'), step])
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.25, tokens: { input: 1000, output: 100 } })
    await putParts(context, [{ ...step, cost: 0.5 }])
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.5, tokens: { input: 1000 } })
  })

  it('reads no stored part to write one that carries no usage, and still moves the totals for a step-finish', async () => {
    const { context, db, build, session, reply } = await conversation()
    const get = db.parts.get.bind(db.parts)
    const bulkGet = db.parts.bulkGet.bind(db.parts)
    let reads = 0
    db.parts.get = ((key: string) => (reads++, get(key))) as typeof db.parts.get
    db.parts.bulkGet = ((keys: string[]) => (reads++, bulkGet(keys))) as typeof db.parts.bulkGet
    const text = build.text(reply, 'first')
    await putPart(context, text)
    await putPart(context, { ...text, text: 'first, longer' })
    expect(reads).toBe(0)
    const step = build.stepFinish(reply, 0.25, 1000, 100)
    await putPart(context, step)
    await putPart(context, { ...step, cost: 0.5 })
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.5, tokens: { input: 1000 } })
    expect(((await db.parts.get(text.id)) as typeof text).text).toBe('first, longer')
  })

  it('reads together, then writes together: a step’s finish and its tool’s result are two round trips to storage', async () => {
    const { context, db, build, session, reply } = await conversation()
    const trips = await countRoundTrips(db)
    const tool = build.text(reply, 'the tool’s result, held for the finish')
    const step = build.stepFinish(reply, 0.25, 1000, 100)
    trips.trips = 0
    await putPartsAnnounced(context, [tool, step], { message: { ...reply, cost: 0.25, time: { ...reply.time, completed: 2 } } })
    // The messages' check, the finish's old usage and the session; then the parts, the message and the session.
    expect(trips.trips).toBe(2)
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.25, tokens: { input: 1000, output: 100 } })
    trips.trips = 0
    await putPart(context, { ...build.text(reply, 'a queued state') })
    expect(trips.trips).toBe(2)
  })

  it('moves each session’s totals once for several finishes written together, and refuses a part of a missing message', async () => {
    const { context, build, session, reply } = await conversation()
    const first = build.stepFinish(reply, 0.25, 1000, 100)
    const second = build.stepFinish(reply, 0.5, 2000, 200)
    await putPartsAnnounced(context, [first, second])
    expect(await getSession(context, session.id)).toMatchObject({ cost: 0.75, tokens: { input: 3000, output: 300 } })
    await putPartsAnnounced(context, [{ ...first, cost: 0.5 }])
    expect(await getSession(context, session.id)).toMatchObject({ cost: 1, tokens: { input: 3000 } })
    const orphan = { ...build.text(reply, 'lost'), messageID: 'msg_gone' }
    await expect(putPartsAnnounced(context, [build.text(reply, 'kept back'), orphan])).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('lists a message’s parts and only its own', async () => {
    const { context, build, user, reply } = await conversation()
    const prompt = build.text(user, 'question')
    const answer = build.text(reply, 'answer')
    await putPart(context, prompt)
    await putPart(context, answer)
    expect(await partsOf(context, reply.id)).toEqual([answer])
  })

  it('rewrites parts as stored now, skips one removed meanwhile, and writes none when a new version is invalid', async () => {
    const { context, db, build, reply } = await conversation()
    const first = build.text(reply, 'first')
    const second = build.text(reply, 'second')
    await putParts(context, [first, second])
    await putPart(context, { ...first, text: 'first, edited' })
    const gone = await putPart(context, build.text(reply, 'removed before the rewrite'))
    await removePart(context, gone.id)
    const shout = (part: Part): Part | undefined => (part.type === 'text' ? { ...part, text: part.text.toUpperCase() } : undefined)
    expect(await rewriteParts(context, [first.id, gone.id, second.id], shout)).toEqual([
      { ...first, text: 'FIRST, EDITED' },
      { ...second, text: 'SECOND' },
    ])
    expect(await db.parts.get(gone.id)).toBeUndefined()
    const broken = (part: Part) => (part.id === second.id ? { ...part, messageID: 'nope' } : ({ ...part, text: 'never stored' } as Part))
    await expect(rewriteParts(context, [first.id, second.id], broken)).rejects.toMatchObject({ name: 'ValidationError', data: { shape: 'part' } })
    expect(await partsOf(context, reply.id)).toMatchObject([{ text: 'FIRST, EDITED' }, { text: 'SECOND' }])
  })
})
