import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ToolRegistry } from '../tool/registry'
import { defineTool, type ToolDefinition } from '../tool/tool'
import { AGENTS } from './agent'
import type { SessionStatus } from './event'
import { loadHistory } from './history'
import { runLoop, type LoopDependencies, type ModelSource } from './loop'
import { createUserMessage, enqueuePrompt } from './prompt'
import type { AssistantMessage, Part } from './schema'
import { createSession, getSession } from './session-store'
import { makeTestContext } from './test-context'
import { apiError, finish, scriptedModel, textReply, toolReply, type ScriptedReply } from './testing/scripted-model'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }
const PRICES = { input: 3, output: 15 }

async function setup(replies: ScriptedReply[], options: { titleReplies?: ScriptedReply[]; retryLimit?: number } = {}) {
  const test = makeTestContext()
  const main = scriptedModel(replies)
  const small = scriptedModel(options.titleReplies ?? [textReply('A generated title')], 'mock-small')
  const models: ModelSource = {
    resolve: async (reference) => ({
      model: reference.modelID === 'mock-small' ? small.model : main.model,
      providerID: reference.providerID,
      modelID: reference.modelID,
      limit: { context: 100_000, output: 4_000 },
      cost: PRICES,
    }),
    smallModel: async () => ({ providerID: 'mock', modelID: 'mock-small' }),
  }
  const statuses: SessionStatus[] = []
  const sleeps: number[] = []
  const dependencies: LoopDependencies = {
    store: test.context,
    models,
    tools: new ToolRegistry(),
    retryLimit: async () => options.retryLimit ?? 8,
    sleep: async (milliseconds, signal) => {
      sleeps.push(milliseconds)
      if (signal.aborted) throw new Error('aborted')
    },
    setStatus: (_sessionID, status) => statuses.push(status),
  }
  const session = await createSession(test.context, { projectID: 'prj_test' })
  const prompt = (text: string) => createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL })
  const run = (signal = new AbortController().signal, resume = false) => runLoop(dependencies, session.id, { signal, resume })
  const history = () => loadHistory(test.context, session.id)
  const assistants = async () => (await history()).filter((entry) => entry.info.role === 'assistant')
  return { ...test, session, prompt, run, history, assistants, statuses, sleeps, main, small, dependencies }
}

const textOf = (parts: Part[]) => parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')

describe('the loop', () => {
  it('answers a prompt with one assistant message: text, step parts, usage and cost', async () => {
    const { prompt, run, assistants, statuses, session, context, events } = await setup([textReply('Hello there', [1000, 200])])
    await prompt('hi')
    await run()
    const [reply] = await assistants()
    const info = reply!.info as AssistantMessage
    expect(textOf(reply!.parts)).toBe('Hello there')
    expect(reply!.parts.map((part) => part.type)).toEqual(['step-start', 'text', 'step-finish'])
    expect(info).toMatchObject({ finish: 'stop', modelID: 'mock-model', tokens: { input: 1000, output: 200 } })
    expect(info.cost).toBeCloseTo((1000 * 3 + 200 * 15) / 1e6, 12)
    expect(info.time.completed).toBeTypeOf('number')
    expect(statuses[0]).toEqual({ type: 'busy' })
    expect(statuses.at(-1)).toEqual({ type: 'idle' })
    expect((await getSession(context, session.id)).cost).toBeCloseTo(info.cost, 12)
    expect(events.some((event) => event.type === 'part.delta')).toBe(true)
  })

  it('maps reasoning and text events to parts with start and end times, in stream order', async () => {
    const { prompt, run, assistants } = await setup([
      {
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'reasoning-start', id: 'r1' },
          { type: 'reasoning-delta', id: 'r1', delta: 'Let me ' },
          { type: 'reasoning-delta', id: 'r1', delta: 'think.' },
          { type: 'reasoning-end', id: 'r1' },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Answer.' },
          { type: 'text-end', id: 't1' },
          finish('stop', [100, 40, 30]),
        ],
      },
    ])
    await prompt('why?')
    await run()
    const reply = (await assistants())[0]!
    expect(reply.parts.map((part) => part.type)).toEqual(['step-start', 'reasoning', 'text', 'step-finish'])
    expect(reply.parts[1]).toMatchObject({ type: 'reasoning', text: 'Let me think.', time: { start: expect.any(Number), end: expect.any(Number) } })
    expect(reply.parts[3]).toMatchObject({ type: 'step-finish', reason: 'stop', tokens: { input: 100, output: 10, reasoning: 30 } })
  })

  it('runs tools and continues until the model stops, one message per step', async () => {
    const todos = [{ id: '1', content: 'Write the parser', status: 'in_progress', priority: 'high' }]
    const { prompt, run, assistants, events, db, session } = await setup([
      toolReply([{ id: 'call_1', name: 'todowrite', input: { todos } }]),
      textReply('Done'),
    ])
    await prompt('plan it')
    await run()
    const replies = await assistants()
    expect(replies).toHaveLength(2)
    expect((replies[0]!.info as AssistantMessage).finish).toBe('tool-calls')
    const tool = replies[0]!.parts.find((part) => part.type === 'tool')!
    expect(tool).toMatchObject({ tool: 'todowrite', state: { status: 'completed', title: '1 todo' } })
    expect((await db.todos.get(session.id))?.items).toEqual(todos)
    expect(events.some((event) => event.type === 'todo.updated')).toBe(true)
    expect(textOf(replies[1]!.parts)).toBe('Done')
  })

  it('sends the tool result back to the model on the next step', async () => {
    const { prompt, run, main } = await setup([toolReply([{ id: 'call_1', name: 'todowrite', input: { todos: [] } }]), textReply('ok')])
    await prompt('go')
    await run()
    const second = main.model.doStreamCalls[1]!.prompt
    const tool = second.find((message) => message.role === 'tool')
    expect(JSON.stringify(tool)).toContain('call_1')
  })

  it('repairs a tool name that differs only in case and routes unknown tools to invalid', async () => {
    const { prompt, run, assistants } = await setup([
      toolReply([
        { id: 'a', name: 'TodoWrite', input: { todos: [] } },
        { id: 'b', name: 'frobnicate', input: {} },
      ]),
      textReply('ok'),
    ])
    await prompt('go')
    await run()
    const tools = (await assistants())[0]!.parts.filter((part) => part.type === 'tool')
    expect(tools.map((part) => [part.tool, part.state.status])).toEqual([
      ['todowrite', 'completed'],
      ['invalid', 'completed'],
    ])
    expect((tools[1]!.state as { output: string }).output).toContain('frobnicate')
  })

  it('tells the model which fields of its tool input are wrong', async () => {
    const { prompt, run, assistants } = await setup([toolReply([{ id: 'a', name: 'todowrite', input: { todos: [{ id: 1 }] } }]), textReply('ok')])
    await prompt('go')
    await run()
    const tool = (await assistants())[0]!.parts.find((part) => part.type === 'tool')!
    expect(tool.state.status).toBe('error')
    expect((tool.state as { error: string }).error).toMatch(/invalid arguments: todos\.0\.id: .*call the tool again/)
  })

  it('retries a rate limit with the provider’s delay, then succeeds', async () => {
    const { prompt, run, assistants, statuses, sleeps } = await setup([apiError(429, 'Slow down', { 'retry-after': '3' }), textReply('finally')])
    await prompt('hi')
    await run()
    expect(sleeps).toEqual([3000])
    expect(statuses).toContainEqual(expect.objectContaining({ type: 'retry', attempt: 1, message: 'Rate limited' }))
    const replies = await assistants()
    expect(replies).toHaveLength(1)
    expect(textOf(replies[0]!.parts)).toBe('finally')
    expect((replies[0]!.info as AssistantMessage).error).toBeUndefined()
  })

  it('gives up after the attempt limit with a clear error', async () => {
    const { prompt, run, assistants, sleeps, events } = await setup(
      [apiError(500, 'upstream broke'), apiError(500, 'upstream broke'), apiError(500, 'upstream broke')],
      { retryLimit: 2 },
    )
    await prompt('hi')
    await run()
    expect(sleeps).toEqual([2000, 4000])
    const info = (await assistants())[0]!.info as AssistantMessage
    expect(info.error).toMatchObject({ name: 'APIError', data: { message: 'Gave up after 2 retries: upstream broke', statusCode: 500 } })
    expect(events).toContainEqual(expect.objectContaining({ type: 'session.error' }))
  })

  it('never stores the provider key, even when the error body echoes it', async () => {
    const test = await setup([apiError(400, 'Invalid request for key sk-secret-123456')])
    const resolve = test.dependencies.models.resolve
    test.dependencies.models.resolve = async (reference) => ({
      ...(await resolve(reference)),
      redact: (text: string) => text.split('sk-secret-123456').join('[redacted]'),
    })
    await test.prompt('hi')
    await test.run()
    const info = (await test.assistants())[0]!.info
    expect(JSON.stringify(info)).not.toContain('sk-secret-123456')
    expect(JSON.stringify(info)).toContain('[redacted]')
    expect(JSON.stringify(test.events)).not.toContain('sk-secret-123456')
  })

  it('ends the turn on a context overflow with a named error and no retry', async () => {
    const { prompt, run, assistants, sleeps } = await setup([apiError(400, "This model's maximum context length is 8192 tokens")])
    await prompt('hi')
    await run()
    expect(sleeps).toEqual([])
    expect((await assistants())[0]!.info).toMatchObject({ error: { name: 'ContextOverflowError' }, finish: 'error' })
  })

  it('stops at once when cancelled mid-stream, keeping the text so far and closing every part', async () => {
    const { prompt, run, assistants } = await setup([
      {
        hangAfter: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Partial' },
        ],
      },
    ])
    await prompt('hi')
    const controller = new AbortController()
    const running = run(controller.signal)
    // The text part is written when it starts; its text reaches storage on the next flush.
    await expect.poll(async () => textOf((await assistants())[0]?.parts ?? []), { interval: 5 }).toBe('Partial')
    controller.abort()
    await running
    const reply = (await assistants())[0]!
    expect(reply.info).toMatchObject({ error: { name: 'MessageAbortedError' } })
    expect((reply.info as AssistantMessage).time.completed).toBeTypeOf('number')
    const text = reply.parts.find((part) => part.type === 'text')!
    expect(text).toMatchObject({ text: 'Partial', time: { end: expect.any(Number) } })
  })

  it('cancels a running tool: the tool sees the abort and its part becomes an interrupted error', async () => {
    const test = await setup([toolReply([{ id: 'slow_1', name: 'slow', input: {} }])])
    let toolAborted = false
    let markStarted = () => {}
    const started = new Promise<void>((resolve) => (markStarted = resolve))
    test.dependencies.tools = new ToolRegistry([
      defineTool({
        id: 'slow',
        description: 'Takes its time',
        parameters: z.object({}),
        execute: (_input, context) =>
          new Promise((_resolve, reject) => {
            markStarted()
            context.progress({ metadata: { output: 'half way' } })
            context.abort.addEventListener('abort', () => {
              toolAborted = true
              reject(new Error('killed'))
            })
          }),
      }) as ToolDefinition,
    ])
    await test.prompt('go')
    const controller = new AbortController()
    const running = test.run(controller.signal)
    await started
    controller.abort()
    await running
    expect(toolAborted).toBe(true)
    const reply = (await test.assistants())[0]!
    expect(reply.info).toMatchObject({ error: { name: 'MessageAbortedError' } })
    expect(reply.parts.find((part) => part.type === 'tool')).toMatchObject({
      state: { status: 'error', error: 'Tool execution aborted', metadata: { interrupted: true, output: 'half way' } },
    })
  })

  it('answers a prompt stored while it runs in the same run (steering)', async () => {
    const test = await setup([toolReply([{ id: 'a', name: 'todowrite', input: { todos: [] } }]), textReply('first done'), textReply('second answered')])
    await test.prompt('first')
    const original = test.dependencies.tools.stepTools.bind(test.dependencies.tools)
    let injected = false
    test.dependencies.tools.stepTools = (context, abort) => {
      if (!injected) {
        injected = true
        void test.prompt('also this')
      }
      return original(context, abort)
    }
    await test.run()
    const history = await test.history()
    expect(history.map((entry) => entry.info.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(textOf(history.at(-1)!.parts)).toBe('first done')
    expect(test.main.remaining()).toBe(1)
  })

  it('runs queued prompts after the turn ends, first in first out', async () => {
    const test = await setup([textReply('one'), textReply('two'), textReply('three')])
    await test.prompt('first')
    await enqueuePrompt(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'second' }] })
    await enqueuePrompt(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'third' }] })
    await test.run()
    const history = await test.history()
    expect(history.map((entry) => `${entry.info.role}:${textOf(entry.parts)}`)).toEqual([
      'user:first',
      'assistant:one',
      'user:second',
      'assistant:two',
      'user:third',
      'assistant:three',
    ])
    expect(await test.db.inbox.count()).toBe(0)
  })

  it('tells the model on its last allowed step to wrap up', async () => {
    const build = AGENTS.build!
    build.steps = 2
    try {
      const test = await setup([toolReply([{ id: 'a', name: 'todowrite', input: { todos: [] } }]), textReply('summary')])
      await test.prompt('go')
      await test.run()
      const last = test.main.model.doStreamCalls[1]!.prompt.at(-1)!
      expect(last.role).toBe('assistant')
      expect(JSON.stringify(last.content)).toContain('MAXIMUM STEPS REACHED')
      expect(JSON.stringify(test.main.model.doStreamCalls[0]!.prompt)).not.toContain('MAXIMUM STEPS')
    } finally {
      delete build.steps
    }
  })

  it('titles a new root session with the small model, stripped of thinking', async () => {
    const test = await setup([textReply('hello')], { titleReplies: [textReply('<think>hmm</think>\nParser refactor plan')] })
    await test.prompt('refactor the parser')
    await test.run()
    await expect.poll(async () => (await getSession(test.context, test.session.id)).title).toBe('Parser refactor plan')
    expect(JSON.stringify(test.small.model.doStreamCalls[0]!.prompt)).toContain('refactor the parser')
  })

  it('does not answer twice: a second run on a finished turn does nothing', async () => {
    const test = await setup([textReply('once')])
    await test.prompt('hi')
    await test.run()
    await test.run()
    expect(await test.assistants()).toHaveLength(1)
  })

  it('resumes a failed turn only when asked', async () => {
    const test = await setup([apiError(400, 'bad things'), textReply('recovered')])
    await test.prompt('hi')
    await test.run()
    await test.run()
    expect(await test.assistants()).toHaveLength(1)
    await test.run(undefined, true)
    const replies = await test.assistants()
    expect(replies).toHaveLength(2)
    expect(textOf(replies[1]!.parts)).toBe('recovered')
  })
})
