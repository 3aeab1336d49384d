import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { updateMessage } from '../store/message-store'
import { createSession } from '../store/session-store'
import { recordPatch, type TurnDependencies } from './turn-tools'

describe('the patch part after a step', () => {
  it('is validated like every other part: a bad one is refused and nothing is written', async () => {
    const { context, db, events } = makeTestContext()
    const build = makeBuilders()
    const session = await createSession(context, { projectID: 'prj_test' })
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id)
    await updateMessage(context, user)
    await updateMessage(context, reply)
    const dependencies = {
      store: context,
      snapshots: { changedFiles: async () => [42] },
    } as unknown as TurnDependencies
    const before = events.length
    await expect(recordPatch(dependencies, reply, 'snap_a', 'snap_b')).rejects.toMatchObject({ name: 'ValidationError' })
    expect(await db.parts.count()).toBe(0)
    expect(events.slice(before)).toEqual([])
  })
})
