import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { updateMessage } from './message-store'
import { partsOf, putPart, putParts } from './parts'
import { createSession, getSession } from './session-store'

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

  it('lists a message’s parts and only its own', async () => {
    const { context, build, user, reply } = await conversation()
    const prompt = build.text(user, 'question')
    const answer = build.text(reply, 'answer')
    await putPart(context, prompt)
    await putPart(context, answer)
    expect(await partsOf(context, reply.id)).toEqual([answer])
  })
})
