import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { writeFixture } from '../store/fixture'
import { turnIsDone } from '../core/history'
import { loadHistory, loadOpenTail } from '../store/message-store'
import { toModelMessages, INTERRUPTED_TOOL_TEXT } from './model-messages'
import { DIED_MESSAGE, repairSession } from '../store/recovery'
import type { AssistantMessage, Part } from '../core/schema'
import { makeTestContext } from '../testing/test-context'

describe('recovering a turn whose runner died', () => {
  async function died(metadata?: Record<string, unknown>) {
    const test = makeTestContext()
    const build = makeBuilders()
    const session = { ...build.session(), ...(metadata ? { metadata } : {}) }
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id, { time: { created: 5 }, finish: undefined })
    const base = { sessionID: session.id, messageID: reply.id }
    const parts: Part[] = [
      { ...base, id: build.ids.ascending('part'), type: 'step-start' },
      { ...base, id: build.ids.ascending('part'), type: 'reasoning', text: 'thinking', time: { start: 5 } },
      { ...base, id: build.ids.ascending('part'), type: 'text', text: 'Up to the last flush', time: { start: 6 } },
      { ...base, id: build.ids.ascending('part'), type: 'tool', callID: 'run', tool: 'bash', state: { status: 'running', input: { command: 'make' }, metadata: { output: 'compiling' }, time: { start: 7 } } },
      { ...base, id: build.ids.ascending('part'), type: 'tool', callID: 'wait', tool: 'todowrite', state: { status: 'pending', input: {}, raw: '' } },
    ]
    await writeFixture(test.context, { sessions: [session], messages: [user, reply], parts })
    return { ...test, session, reply }
  }

  it('closes text, interrupts tools and completes the message with an aborted error', async () => {
    const { context, session, reply } = await died()
    expect(await repairSession(context, session.id)).toBe(true)
    const history = await loadHistory(context, session.id)
    const repaired = history.find((entry) => entry.info.id === reply.id)!
    expect(repaired.info).toMatchObject({ error: { name: 'MessageAbortedError', data: { message: DIED_MESSAGE } } })
    expect((repaired.info as AssistantMessage).time.completed).toBeTypeOf('number')
    const [, reasoning, text, running, pending] = repaired.parts
    expect(reasoning).toMatchObject({ time: { end: expect.any(Number) } })
    expect(text).toMatchObject({ text: 'Up to the last flush', time: { end: expect.any(Number) } })
    expect(running).toMatchObject({ state: { status: 'error', error: 'Tool execution aborted', metadata: { interrupted: true, output: 'compiling' } } })
    expect(pending).toMatchObject({ state: { status: 'error', metadata: { interrupted: true } } })
    // The next prompt works: the turn is over, and every tool call has a result for the model.
    expect(turnIsDone(history)).toBe(true)
    const messages = toModelMessages(history, { providerID: 'openai', modelID: 'gpt-test' })
    expect(JSON.stringify(messages)).toContain('compiling')
    expect(JSON.stringify(messages)).not.toContain(INTERRUPTED_TOOL_TEXT)
  })

  it('leaves an imported session exactly as imported: its unfinished turn is a record, not a crash here', async () => {
    const { context, session } = await died({ import: { source: 'file', time: 1 } })
    const before = await loadHistory(context, session.id)
    expect(await repairSession(context, session.id)).toBe(false)
    expect(await loadHistory(context, session.id)).toEqual(before)
    expect(before.find((entry) => entry.info.role === 'assistant')!.info).not.toHaveProperty('error')
  })

  it('changes nothing in a healthy session', async () => {
    const { context, session } = await died()
    await repairSession(context, session.id)
    expect(await repairSession(context, session.id)).toBe(false)
  })

  it('reads only the newest messages back to a completed reply, however long the session', async () => {
    const test = makeTestContext()
    const build = makeBuilders()
    const session = build.session()
    const messages = []
    for (let turn = 0; turn < 300; turn++) {
      const ask = build.user(session.id)
      messages.push(ask, build.assistant(session.id, ask.id, { time: { created: build.now(), completed: build.now() } }))
    }
    const last = messages.at(-1)!
    const ask = build.user(session.id)
    const open = build.assistant(session.id, ask.id, { time: { created: build.now() }, finish: undefined })
    const text: Part = { ...build.text(open, 'half a reply'), time: { start: 1 } }
    await writeFixture(test.context, { sessions: [session], messages: [...messages, ask, open], parts: [text] })
    expect((await loadOpenTail(test.context, session.id, 2)).map((entry) => entry.info.id)).toEqual([last.id, ask.id, open.id])
    expect(await loadOpenTail(test.context, session.id)).toHaveLength(messages.length + 2)
    expect(await repairSession(test.context, session.id)).toBe(true)
    expect((await loadHistory(test.context, session.id)).at(-1)!.parts[0]).toMatchObject({ time: { end: expect.any(Number) } })
  })
})
