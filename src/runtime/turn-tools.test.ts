import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { makeTestContext } from '../testing/test-context'
import { updateMessage } from '../store/message-store'
import { createSession } from '../store/session-store'
import { recordPatch, storedOutputs, storedTodos, type TurnDependencies } from './turn-tools'

describe('the tools’ stored ports', () => {
  it('keeps a truncated output whole under a tool id and reads it back by that id', async () => {
    const test = makeTestContext()
    const outputs = storedOutputs(test.context)
    const id = await outputs.save({ sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', text: 'the whole text' })
    expect(id).toMatch(/^tool_/)
    expect(await outputs.read(id)).toBe('the whole text')
    expect(await test.db.outputs.get(id)).toMatchObject({ sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', time: { created: expect.any(Number) } })
    expect(await outputs.read('tool_missing')).toBeUndefined()
  })

  it('writes the session’s task list and announces it', async () => {
    const test = makeTestContext()
    const todos = [{ content: 'ship it', status: 'pending' as const, priority: 'high' as const, id: '1' }]
    expect(await storedTodos(test.context).write('ses_1', todos)).toEqual(todos)
    expect((await test.db.todos.get('ses_1'))?.items).toEqual(todos)
    expect(test.events).toContainEqual({ type: 'todo.updated', sessionID: 'ses_1', todos })
  })
})

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
