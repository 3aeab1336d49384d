import { describe, expect, it } from 'vitest'
import { editQueuedPrompt, enqueuePrompt, queuedPrompts, removeQueuedPrompt, takeQueuedPrompt } from './prompt'
import { createSession } from './session-store'
import { makeTestContext } from '../testing/test-context'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }

async function setup() {
  const test = makeTestContext()
  const session = await createSession(test.context, { projectID: 'prj_test' })
  const queue = (text: string) => enqueuePrompt(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL })
  const texts = async () => (await queuedPrompts(test.context, session.id)).map((entry) => entry.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''))
  const lastInbox = () => test.events.filter((event) => event.type === 'inbox.updated').at(-1)
  return { ...test, session, queue, texts, lastInbox }
}

describe('queued prompts', () => {
  it('keeps an edited prompt in its place and tells every tab the new list', async () => {
    const { context, queue, texts, lastInbox, session } = await setup()
    const first = await queue('first')
    await queue('second')
    await editQueuedPrompt(context, first.id, [{ type: 'text', text: 'first, edited' }])
    expect(await texts()).toEqual(['first, edited', 'second'])
    expect(lastInbox()).toMatchObject({ sessionID: session.id, entries: [{ id: first.id, parts: [{ text: 'first, edited' }] }, { parts: [{ text: 'second' }] }] })
    expect((await takeQueuedPrompt(context, session.id))?.id).toBe(first.id)
    expect(lastInbox()).toMatchObject({ entries: [{ parts: [{ text: 'second' }] }] })
  })

  it('removes a prompt, and refuses to edit one that has already run', async () => {
    const { context, queue, texts, lastInbox, session } = await setup()
    const first = await queue('first')
    const second = await queue('second')
    expect(await removeQueuedPrompt(context, second.id)).toBe(true)
    expect(await removeQueuedPrompt(context, second.id)).toBe(false)
    expect(await texts()).toEqual(['first'])
    expect(lastInbox()).toMatchObject({ entries: [{ id: first.id }] })
    await takeQueuedPrompt(context, session.id)
    expect(lastInbox()).toMatchObject({ entries: [] })
    await expect(editQueuedPrompt(context, first.id, [{ type: 'text', text: 'too late' }])).rejects.toMatchObject({ name: 'NotFoundError' })
    await expect(editQueuedPrompt(context, first.id, [{ type: 'text', text: '  ' }])).rejects.toMatchObject({ name: 'InputError' })
  })
})
