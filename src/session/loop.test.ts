import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { ToolRegistry } from '../tools/registry'
import { defineTool, type ToolDefinition } from '../tools/tool'
import { AGENTS } from '../core/agent'
import { StorageFullError } from '../core/errors'
import type { SessionStatus } from '../core/event'
import { createCompactionMarker } from '../store/compaction-store'
import { CONTINUE_TEXT } from '../core/compaction/prompt'
import { runLoop, type CompactionSettings, type LoopDependencies } from './loop'
import type { ModelSource } from './model-source'
import { loadHistory, updatePart } from '../store/message-store'
import { CLEARED_TOOL_TEXT, COMPACTION_QUESTION } from './model-messages'
import { createUserMessage, enqueuePrompt } from '../store/prompt'
import type { AssistantMessage, Part } from '../core/schema'
import { createSession, getSession } from '../store/session-store'
import { makeTestContext } from '../testing/test-context'
import { testWorkspacePorts } from '../testing/loop-dependencies'
import { apiError, finish, scriptedModel, textReply, toolReply, type ScriptedReply } from '../testing/scripted-model'

const MODEL = { providerID: 'mock', modelID: 'mock-model' }
const PRICES = { input: 3, output: 15 }
// 96,000 tokens usable before compaction.
const LIMIT = { context: 100_000, output: 4_000 }
// A model with a smaller context (36,000 tokens usable), for a session switched to it.
const TINY = { providerID: 'mock', modelID: 'mock-tiny' }
const TINY_LIMIT = { context: 40_000, output: 4_000 }

async function setup(
  replies: ScriptedReply[],
  options: { titleReplies?: ScriptedReply[]; tinyReplies?: ScriptedReply[]; retryLimit?: number; compaction?: Partial<CompactionSettings> } = {},
) {
  const test = makeTestContext()
  const main = scriptedModel(replies)
  const small = scriptedModel(options.titleReplies ?? [textReply('A generated title')], 'mock-small')
  const tiny = scriptedModel(options.tinyReplies ?? [], TINY.modelID)
  const models: ModelSource = {
    resolve: async (reference) => ({
      model: reference.modelID === 'mock-small' ? small.model : reference.modelID === TINY.modelID ? tiny.model : main.model,
      providerID: reference.providerID,
      modelID: reference.modelID,
      limit: reference.modelID === TINY.modelID ? TINY_LIMIT : LIMIT,
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
    compaction: async () => ({ auto: true, prune: true, ...options.compaction }),
    ...testWorkspacePorts({ now: test.context.now }),
  }
  const session = await createSession(test.context, { projectID: 'prj_test' })
  const prompt = (text: string) => createUserMessage(test.context, { sessionID: session.id, parts: [{ type: 'text', text }], model: MODEL })
  const run = (signal = new AbortController().signal, resume = false) => runLoop(dependencies, session.id, { signal, resume })
  const history = () => loadHistory(test.context, session.id)
  const assistants = async () => (await history()).filter((entry) => entry.info.role === 'assistant')
  return { ...test, session, prompt, run, history, assistants, statuses, sleeps, main, small, tiny, dependencies }
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

  it("reads the settings, the retry limit and the model once per turn, not once per step, and afresh for the next turn", async () => {
    const test = await setup([
      toolReply([{ id: 'call_1', name: 'todowrite', input: { todos: [] } }]),
      toolReply([{ id: 'call_2', name: 'todowrite', input: { todos: [] } }]),
      textReply('first done'),
      textReply('second done'),
    ])
    const { dependencies } = test
    const counts = { settings: 0, retry: 0, model: 0 }
    const { compaction, retryLimit } = dependencies
    const resolve = dependencies.models.resolve.bind(dependencies.models)
    dependencies.compaction = () => (counts.settings++, compaction!())
    dependencies.retryLimit = () => (counts.retry++, retryLimit())
    dependencies.models = { ...dependencies.models, resolve: (reference) => (reference.modelID === MODEL.modelID && counts.model++, resolve(reference)) }
    await test.prompt('first')
    await enqueuePrompt(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'second' }] })
    await test.run()
    const replies = await test.assistants()
    expect(replies.map((reply) => textOf(reply.parts))).toEqual(['', '', 'first done', 'second done'])
    // Four steps over two turns: one read of each per turn.
    expect(counts).toEqual({ settings: 2, retry: 2, model: 2 })
  })

  it('sends the tool result back to the model on the next step', async () => {
    const { prompt, run, main } = await setup([toolReply([{ id: 'call_1', name: 'todowrite', input: { todos: [] } }]), textReply('ok')])
    await prompt('go')
    await run()
    const second = main.model.doStreamCalls[1]!.prompt
    const tool = second.find((message) => message.role === 'tool')
    expect(JSON.stringify(tool)).toContain('call_1')
  })

  it("keeps a tool call's provider metadata and a tool's media, and sends both back on the next step", async () => {
    const call = { type: 'tool-call' as const, toolCallId: 'shot_1', toolName: 'shot', input: '{}', providerMetadata: { google: { thoughtSignature: 'sig' } } }
    const test = await setup([{ chunks: [{ type: 'stream-start', warnings: [] }, call, finish('tool-calls')] }, textReply('I see a cat')])
    test.dependencies.tools = new ToolRegistry([
      defineTool({
        id: 'shot',
        description: 'Takes a screenshot',
        parameters: z.object({}),
        execute: async () => ({ title: 'shot', output: 'Image read successfully', attachments: [{ mime: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'cat.png' }] }),
      }),
    ])
    await test.prompt('look')
    await test.run()
    const stored = (await test.assistants())[0]!.parts.find((part) => part.type === 'tool')!
    expect(stored.metadata).toEqual({ google: { thoughtSignature: 'sig' } })
    expect(stored.state).toMatchObject({ status: 'completed', attachments: [{ type: 'file', mime: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'cat.png' }] })
    const next = test.main.model.doStreamCalls[1]!.prompt
    const assistant = next.find((message) => message.role === 'assistant')!
    expect(assistant.content).toEqual([expect.objectContaining({ type: 'tool-call', toolCallId: 'shot_1', providerOptions: { google: { thoughtSignature: 'sig' } } })])
    // The mock provider takes no media in tool results: the image follows in a user message.
    const media = next.at(-1)!
    expect(media.role).toBe('user')
    expect(JSON.stringify(media.content)).toContain('Attached media from tool result:')
    expect(JSON.stringify(media.content)).toContain('iVBO')
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
    // The status shows the provider's own words, as opencode's does.
    expect(statuses).toContainEqual(expect.objectContaining({ type: 'retry', attempt: 1, message: 'Slow down' }))
    const replies = await assistants()
    expect(replies).toHaveLength(1)
    expect(textOf(replies[0]!.parts)).toBe('finally')
    expect((replies[0]!.info as AssistantMessage).error).toBeUndefined()
  })

  it('says the browser is offline instead of retrying a failed fetch eight times, unless the model is local', async () => {
    const offline = { throws: new TypeError('Failed to fetch') }
    const { prompt, run, assistants, sleeps, dependencies } = await setup([offline, offline, textReply('local answer')])
    dependencies.online = () => false
    await prompt('hi')
    await run()
    expect(sleeps).toEqual([])
    const info = (await assistants())[0]!.info as AssistantMessage
    expect(info.error).toMatchObject({ name: 'APIError', data: { message: expect.stringContaining('The browser is offline'), isRetryable: false } })
    // A model served on this machine answers offline: its failure is retried as any other.
    const resolve = dependencies.models.resolve
    dependencies.models = { ...dependencies.models, resolve: async (reference) => ({ ...(await resolve(reference)), local: true }) }
    await prompt('again')
    await run()
    expect(sleeps).toEqual([2000])
    expect(textOf((await assistants()).at(-1)!.parts)).toBe('local answer')
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

  it('ends the turn on a context overflow with a named error and no retry when automatic compaction is off', async () => {
    const { prompt, run, assistants, sleeps, main } = await setup([textReply('hello'), apiError(400, "This model's maximum context length is 8192 tokens")], {
      compaction: { auto: false },
    })
    await prompt('hi')
    await run()
    await prompt('and now a long one')
    await run()
    expect(sleeps).toEqual([])
    expect(main.model.doStreamCalls).toHaveLength(2)
    const info = (await assistants())[1]!.info as AssistantMessage
    expect(info).toMatchObject({ error: { name: 'ContextOverflowError' }, finish: 'error' })
    expect((info.error as { data: { message: string } }).data.message).toMatch(
      /maximum context length is 8192 tokens.*Automatic compaction is off: compact the session now, branch .* or choose a model with a larger context/,
    )
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
    // As opencode stores a reply stopped mid-step: the aborted error, and no finish (not tabcode's finish: error).
    expect(reply.info).not.toHaveProperty('finish')
    const text = reply.parts.find((part) => part.type === 'text')!
    expect(text).toMatchObject({ text: 'Partial', time: { end: expect.any(Number) } })
  })

  it('stops at the first refused flush, while the model is still streaming, with the storage-full message', async () => {
    const { prompt, run, assistants, db, events } = await setup([
      {
        hangAfter: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Never stored' },
        ],
      },
    ])
    await prompt('hi')
    // The disk is full for streamed text: the timed flush of the delta is refused (the part's start, empty, was written).
    const bulkPut = db.parts.bulkPut.bind(db.parts)
    db.parts.bulkPut = ((rows: Part[]) =>
      rows.some((row) => row.type === 'text' && row.text)
        ? Promise.reject(Object.assign(new Error('QuotaExceededError'), { name: 'AbortError', inner: new DOMException('full', 'QuotaExceededError') }))
        : bulkPut(rows)) as never
    // Without the stop, the model's open stream would keep the run going until the user cancelled it.
    await run()
    const reply = (await assistants())[0]!
    expect(reply.info).toMatchObject({ error: { name: 'UnknownError', data: { message: new StorageFullError('').message } } })
    expect(events).toContainEqual({ type: 'session.error', sessionID: reply.info.sessionID, error: (reply.info as AssistantMessage).error })
    // What the UI shows of the text is put back to what storage holds.
    const text = reply.parts.find((part) => part.type === 'text')!
    expect(text).toMatchObject({ text: '' })
    const touching = events.filter(
      (event) => (event.type === 'part.updated' && event.part.id === text.id) || (event.type === 'part.delta' && event.partID === text.id),
    )
    expect(touching.map((event) => event.type)).toEqual(['part.updated', 'part.delta', 'part.updated'])
    expect(touching.at(-1)).toMatchObject({ part: { text: '' } })
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

  it('keeps the result a tool returns when it is stopped, as bash does with its output so far', async () => {
    const test = await setup([toolReply([{ id: 'bash_1', name: 'shell', input: {} }])])
    let markStarted = () => {}
    const started = new Promise<void>((resolve) => (markStarted = resolve))
    const stopped = 'compiling…\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>'
    test.dependencies.tools = new ToolRegistry([
      defineTool({
        id: 'shell',
        description: 'Runs like bash: an abort kills the command and answers with what it printed',
        parameters: z.object({}),
        execute: (_input, context) =>
          new Promise((resolve) => {
            markStarted()
            context.progress({ metadata: { output: 'compiling…\n' } })
            context.abort.addEventListener('abort', () =>
              // The kill takes a moment: the answer comes after the step has begun its cleanup.
              setTimeout(() => resolve({ title: 'make', output: stopped, metadata: { output: 'compiling…\n', exit: 130 } }), 20),
            )
          }),
      }) as ToolDefinition,
    ])
    await test.prompt('go')
    const controller = new AbortController()
    const running = test.run(controller.signal)
    await started
    controller.abort()
    await running
    const reply = (await test.assistants())[0]!
    expect(reply.info).toMatchObject({ error: { name: 'MessageAbortedError' } })
    expect(reply.info).not.toHaveProperty('finish')
    expect(reply.parts.find((part) => part.type === 'tool')).toMatchObject({
      state: { status: 'completed', output: stopped, title: 'make', metadata: { output: 'compiling…\n', exit: 130 } },
    })
    expect(reply.parts.find((part) => part.type === 'tool')).not.toHaveProperty('state.metadata.interrupted')
  })

  it('writes a stopped tool\'s result that comes after cleanup\'s wait over the interrupted error', async () => {
    const test = await setup([toolReply([{ id: 'bash_1', name: 'shell', input: {} }])])
    let markStarted = () => {}
    const started = new Promise<void>((resolve) => (markStarted = resolve))
    let answer = () => {}
    test.dependencies.tools = new ToolRegistry([
      defineTool({
        id: 'shell',
        description: 'A command whose kill takes longer than cleanup waits',
        parameters: z.object({}),
        execute: () =>
          new Promise((resolve) => {
            markStarted()
            answer = () => resolve({ title: 'make', output: 'half\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>', metadata: { exit: 130 } })
          }),
      }) as ToolDefinition,
    ])
    await test.prompt('go')
    const controller = new AbortController()
    const running = test.run(controller.signal)
    await started
    controller.abort()
    await running
    const toolState = async () => {
      const part = (await test.assistants())[0]!.parts.find((entry) => entry.type === 'tool')
      return part?.type === 'tool' ? part.state : undefined
    }
    expect(await toolState()).toMatchObject({ status: 'error', error: 'Tool execution aborted', metadata: { interrupted: true } })
    answer()
    await vi.waitFor(async () => expect(await toolState()).toMatchObject({ status: 'completed', title: 'make', metadata: { exit: 130 } }))
    expect(await toolState()).toMatchObject({ output: expect.stringContaining('User aborted the command') })
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

  it('answers a prompt another tab stored between reading the history and creating the reply, in its own step', async () => {
    const test = await setup([textReply('one'), textReply('two'), textReply('never')])
    await test.prompt('first')
    // The step's setup awaits (settings, model, agent, workspace, snapshot) before it creates its reply; another
    // tab's prompt lands in that gap here, by construction.
    const resolve = test.dependencies.models.resolve
    let stored = false
    test.dependencies.models.resolve = async (reference) => {
      if (!stored && reference.modelID === MODEL.modelID) {
        stored = true
        await test.prompt('second')
      }
      return resolve(reference)
    }
    await test.run()
    const history = await test.history()
    const [first, one, second, two] = history
    expect(history.map((entry) => `${entry.info.role}:${textOf(entry.parts)}`)).toEqual(['user:first', 'assistant:one', 'user:second', 'assistant:two'])
    expect((one!.info as AssistantMessage).parentID).toBe(first!.info.id)
    expect((two!.info as AssistantMessage).parentID).toBe(second!.info.id)
    // The reply to `first` was created after `second` was stored, yet the model sees it in its place.
    expect(one!.info.id > second!.info.id).toBe(true)
    expect(test.main.model.doStreamCalls).toHaveLength(2)
    expect(JSON.stringify(test.main.model.doStreamCalls[0]!.prompt)).not.toContain('second')
    const [, request] = test.main.model.doStreamCalls
    expect(request!.prompt.filter((message) => message.role !== 'system').map((message) => `${message.role}:${JSON.stringify(message.content)}`)).toEqual([
      expect.stringMatching(/^user:.*first/),
      expect.stringMatching(/^assistant:.*one/),
      expect.stringMatching(/^user:.*second/),
    ])
    expect(test.statuses.at(-1)).toEqual({ type: 'idle' })
  })

  it('answers two prompts stored before it ran one at a time, in order, each with its own reply', async () => {
    const test = await setup([textReply('one'), textReply('two'), textReply('never')])
    await test.prompt('first')
    await test.prompt('second')
    await test.run()
    const history = await test.history()
    expect(history.map((entry) => `${entry.info.role}:${textOf(entry.parts)}`)).toEqual(['user:first', 'assistant:one', 'user:second', 'assistant:two'])
    expect((history[1]!.info as AssistantMessage).parentID).toBe(history[0]!.info.id)
    expect((history[3]!.info as AssistantMessage).parentID).toBe(history[2]!.info.id)
    expect(JSON.stringify(test.main.model.doStreamCalls[0]!.prompt)).not.toContain('second')
    expect(JSON.stringify(test.main.model.doStreamCalls[1]!.prompt.at(-1))).toContain('second')
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

  it('runs a queued prompt without its own model, before any prompt, with the default model', async () => {
    const test = await setup([textReply('one')])
    await test.db.settings.put({ key: 'model.default', value: MODEL })
    await enqueuePrompt(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'first' }] })
    await test.run()
    const history = await test.history()
    expect(history.map((entry) => `${entry.info.role}:${textOf(entry.parts)}`)).toEqual(['user:first', 'assistant:one'])
    expect((history[0]!.info as { model?: unknown }).model).toEqual(MODEL)
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

  it('says why it stopped: an empty inbox after an answer, the step’s error after a failed step', async () => {
    const { prompt, run } = await setup([textReply('hello'), apiError(400, 'bad request')], { retryLimit: 0 })
    await prompt('hi')
    expect(await run()).toEqual({ type: 'inbox-empty' })
    await prompt('again')
    expect(await run()).toMatchObject({ type: 'step-failed', error: { name: 'APIError', data: { message: expect.stringContaining('bad request') } } })
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

const OVERFLOW = "This model's maximum context length is 8192 tokens"

/** A tool call whose step reports `input` tokens used (96,000 or more overflows the mock's context). */
function toolCallUsing(input: number, id = 'call_1'): ScriptedReply {
  return {
    chunks: [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: id, toolName: 'todowrite', input: JSON.stringify({ todos: [] }) },
      finish('tool-calls', [input, 10]),
    ],
  }
}

/** What a model call was sent, as one string (to look for texts in it). */
const sent = (test: { main: { model: { doStreamCalls: { prompt: unknown }[] } } }, call: number) => JSON.stringify(test.main.model.doStreamCalls[call]!.prompt)
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1
const kinds = (history: Awaited<ReturnType<Awaited<ReturnType<typeof setup>>['history']>>) =>
  history.map((entry) => {
    if (entry.info.role === 'assistant') return entry.info.summary ? 'summary' : 'assistant'
    if (entry.parts.some((part) => part.type === 'compaction')) return 'marker'
    if (entry.parts.some((part) => part.type === 'text' && part.metadata?.compaction_continue)) return 'continue'
    return `user:${textOf(entry.parts)}`
  })

describe('compaction in the loop', () => {
  it('compacts after a step that overflowed, then goes on with the summary instead of the history', async () => {
    const test = await setup([toolCallUsing(97_000), textReply('SUMMARY of the work', [500, 100]), textReply('carried on')])
    await test.prompt('build the parser')
    await test.run()
    const history = await test.history()
    expect(kinds(history)).toEqual(['user:build the parser', 'assistant', 'marker', 'summary', 'continue', 'assistant'])
    expect(history[2]!.parts[0]).toMatchObject({ type: 'compaction', auto: true })
    expect(history[2]!.parts[0]).not.toHaveProperty('overflow')
    const summary = history[3]!
    expect(summary.info).toMatchObject({ summary: true, agent: 'compaction', mode: 'compaction', parentID: history[2]!.info.id, finish: 'stop' })
    expect(summary.info).toMatchObject({ tokens: { input: 500, output: 100 } })
    expect((summary.info as AssistantMessage).cost).toBeGreaterThan(0)
    // The summary streamed live, like any reply, and its end was announced as opencode's session.compacted.
    expect(test.events.some((event) => event.type === 'part.delta' && event.messageID === summary.info.id)).toBe(true)
    expect(test.events.filter((event) => event.type === 'session.compacted')).toEqual([{ type: 'session.compacted', sessionID: summary.info.sessionID, messageID: summary.info.id }])
    expect(history[4]!.parts[0]).toMatchObject({ type: 'text', synthetic: true, text: CONTINUE_TEXT, metadata: { compaction_continue: true } })

    const summariser = test.main.model.doStreamCalls[1]!
    expect(summariser.tools).toBeUndefined()
    expect(summariser.prompt[0]).toMatchObject({ role: 'system', content: expect.stringContaining('anchored context summarization assistant') })
    expect(JSON.stringify(summariser.prompt.at(-1))).toContain('Write an anchored summary of the conversation above')
    expect(sent(test, 1)).toContain('build the parser')

    const after = sent(test, 2)
    expect(after).toContain(COMPACTION_QUESTION)
    expect(after).toContain('SUMMARY of the work')
    expect(after).toContain('Continue if you have next steps')
    expect(after).not.toContain('build the parser')
    expect(textOf(history[5]!.parts)).toBe('carried on')
    expect(test.statuses.at(-1)).toEqual({ type: 'idle' })
  })

  it('leaves a reply that ends the turn alone, and compacts before the next prompt is answered', async () => {
    const test = await setup([textReply('big answer', [97_000, 10]), textReply('SUMMARY'), textReply('small answer')])
    await test.prompt('first')
    await test.run()
    expect(kinds(await test.history())).toEqual(['user:first', 'assistant'])
    await test.prompt('second')
    await test.run()
    expect(kinds(await test.history())).toEqual(['user:first', 'assistant', 'user:second', 'marker', 'summary', 'continue', 'assistant'])
    expect(sent(test, 2)).toContain('SUMMARY')
  })

  it('compacts on a provider overflow, replays the prompt that overflowed once, and answers it', async () => {
    const test = await setup([textReply('first answer'), apiError(400, OVERFLOW), textReply('SUMMARY'), textReply('second answer')])
    await test.prompt('first question')
    await test.run()
    await test.prompt('second question')
    await test.run()
    const history = await test.history()
    expect(kinds(history)).toEqual(['user:first question', 'assistant', 'user:second question', 'assistant', 'marker', 'summary', 'user:second question', 'assistant'])
    expect(history[3]!.info).toMatchObject({ error: { name: 'ContextOverflowError' } })
    expect(history[4]!.parts[0]).toMatchObject({ type: 'compaction', auto: true, overflow: true })
    expect(history[6]!.info.id).not.toBe(history[2]!.info.id)
    expect(test.events.some((event) => event.type === 'session.error')).toBe(false)
    // The summariser gets the history before the prompt that overflowed; the retry gets the prompt once.
    expect(sent(test, 2)).toContain('first question')
    expect(sent(test, 2)).not.toContain('second question')
    const retry = sent(test, 3)
    expect(retry).toContain('SUMMARY')
    expect(count(retry, 'second question')).toBe(1)
    expect(retry).not.toContain('first question')
    expect(test.main.model.doStreamCalls).toHaveLength(4)
    expect(textOf(history[7]!.parts)).toBe('second answer')
  })

  it('does not compact when the first prompt alone overflows: nothing earlier could be summarised', async () => {
    const test = await setup([apiError(400, OVERFLOW)])
    await test.prompt('one enormous question')
    await test.run()
    const history = await test.history()
    expect(kinds(history)).toEqual(['user:one enormous question', 'assistant'])
    expect((history[1]!.info as AssistantMessage).error).toMatchObject({
      name: 'ContextOverflowError',
      data: { message: expect.stringMatching(/This prompt alone does not fit.*shorten the prompt, or choose a model with a larger context/) },
    })
    expect(test.main.model.doStreamCalls).toHaveLength(1)
  })

  it('stops with a clear error when the request after compacting overflows again, instead of compacting again', async () => {
    const test = await setup([textReply('first answer'), apiError(400, OVERFLOW), textReply('SUMMARY'), apiError(400, OVERFLOW), textReply('never sent')])
    await test.prompt('first question')
    await test.run()
    await test.prompt('second question')
    await test.run()
    expect(test.main.model.doStreamCalls).toHaveLength(4)
    const history = await test.history()
    expect(kinds(history).filter((kind) => kind === 'summary')).toHaveLength(1)
    const last = history.at(-1)!.info as AssistantMessage
    expect(last.error?.name).toBe('ContextOverflowError')
    expect((last.error as { data: { message: string } }).data.message).toMatch(
      /^Still over the model's context after compacting .*Branch from a recent message into a new session, or choose a model with a larger context\.$/,
    )
    expect(test.events).toContainEqual(expect.objectContaining({ type: 'session.error', error: expect.objectContaining({ name: 'ContextOverflowError' }) }))
    expect(test.statuses.at(-1)).toEqual({ type: 'idle' })
  })

  it('stops the same way when the first step after compacting reports usage over the limit', async () => {
    const test = await setup([toolCallUsing(97_000, 'a'), textReply('SUMMARY'), toolCallUsing(97_000, 'b'), textReply('never sent')])
    await test.prompt('go')
    await test.run()
    expect(test.main.model.doStreamCalls).toHaveLength(3)
    const last = (await test.history()).at(-1)!.info as AssistantMessage
    expect(last.error).toMatchObject({ name: 'ContextOverflowError', data: { message: expect.stringMatching(/^Still over the model's context after compacting \(97010 tokens used, 96000 usable\)/) } })
  })

  it('stops when the summariser overflows too, without retrying it', async () => {
    const test = await setup([textReply('first answer'), apiError(400, OVERFLOW), apiError(400, OVERFLOW), textReply('never sent')])
    await test.prompt('first question')
    await test.run()
    await test.prompt('second question')
    await test.run()
    expect(test.main.model.doStreamCalls).toHaveLength(3)
    expect(test.sleeps).toEqual([])
    const summary = (await test.history()).at(-1)!
    expect(summary.info).toMatchObject({
      summary: true,
      finish: 'error',
      error: { name: 'ContextOverflowError', data: { message: expect.stringMatching(/history is too large to summarise/) } },
    })
    expect(test.events).toContainEqual(expect.objectContaining({ type: 'session.error' }))
    // A later run does not try again on its own.
    await test.run()
    expect(test.main.model.doStreamCalls).toHaveLength(3)
  })

  it('compacts on request: a summary and no follow-up, then the next prompt starts from it', async () => {
    const test = await setup([textReply('first answer'), textReply('SUMMARY'), textReply('second answer')])
    await test.prompt('first question')
    await test.run()
    await createCompactionMarker(test.context, { sessionID: test.session.id, agent: 'build', model: MODEL, auto: false })
    await test.run()
    expect(kinds(await test.history())).toEqual(['user:first question', 'assistant', 'marker', 'summary'])
    expect(test.main.model.doStreamCalls).toHaveLength(2)
    await test.prompt('second question')
    await test.run()
    expect(sent(test, 2)).toContain('SUMMARY')
    expect(sent(test, 2)).not.toContain('first question')
  })

  // Settings → Context: opencode's `compaction.tail_turns` and `compaction.preserve_recent_tokens`, as its
  // session/compaction.ts applies them. Three answered turns are compacted on request, then a fourth prompt is sent.
  const ONE = ['QUESTION-ONE', 'ANSWER-ONE']
  const TWO = ['QUESTION-TWO', 'ANSWER-TWO']
  const THREE = ['QUESTION-THREE', 'ANSWER-THREE']
  it.each([
    { rule: 'unset: the last 2 turns stay verbatim', compaction: {}, long: false, kept: [...TWO, ...THREE], summarised: ONE },
    { rule: 'tail_turns 1: only the newest turn stays', compaction: { tailTurns: 1 }, long: false, kept: THREE, summarised: [...ONE, ...TWO] },
    { rule: 'tail_turns 0: no tail, everything is summarised', compaction: { tailTurns: 0 }, long: false, kept: [], summarised: [...ONE, ...TWO, ...THREE] },
    { rule: 'preserve_recent_tokens 0: no tail either', compaction: { preserveRecentTokens: 0 }, long: false, kept: [], summarised: [...ONE, ...TWO, ...THREE] },
    {
      rule: 'unset, with a turn over the 8,000 tokens of the default budget: that turn is split, its prompt summarised',
      compaction: {},
      long: true,
      kept: ['ANSWER-TWO', ...THREE],
      summarised: [...ONE, 'QUESTION-TWO'],
    },
    { rule: 'preserve_recent_tokens 20,000: the same turn stays whole', compaction: { preserveRecentTokens: 20_000 }, long: true, kept: [...TWO, ...THREE], summarised: ONE },
  ])('keeps the recent turns the compaction settings say: $rule', async ({ compaction, long, kept, summarised }) => {
    const test = await setup([textReply('ANSWER-ONE'), textReply('ANSWER-TWO'), textReply('ANSWER-THREE'), textReply('SUMMARY'), textReply('ANSWER-FOUR')], { compaction })
    for (const question of ['QUESTION-ONE', long ? `QUESTION-TWO ${'x'.repeat(40_000)}` : 'QUESTION-TWO', 'QUESTION-THREE']) {
      await test.prompt(question)
      await test.run()
    }
    await createCompactionMarker(test.context, { sessionID: test.session.id, agent: 'build', model: MODEL, auto: false })
    await test.run()
    await test.prompt('QUESTION-FOUR')
    await test.run()
    const summariser = sent(test, 3)
    const next = sent(test, 4)
    for (const text of [...ONE, ...TWO, ...THREE]) {
      expect({ text, summarised: summariser.includes(text) }).toEqual({ text, summarised: summarised.includes(text) })
      expect({ text, kept: next.includes(text) }).toEqual({ text, kept: kept.includes(text) })
    }
    expect(next).toContain('SUMMARY')
  })

  it('sends the full history again once a compaction is undone', async () => {
    const test = await setup([textReply('first answer'), textReply('SUMMARY'), textReply('second answer')])
    await test.prompt('first question')
    await test.run()
    const marker = await createCompactionMarker(test.context, { sessionID: test.session.id, agent: 'build', model: MODEL, auto: false })
    await test.run()
    const part = marker.parts[0]!
    await updatePart(test.context, { ...part, undone: test.context.now() } as typeof part)
    await test.prompt('second question')
    await test.run()
    const request = sent(test, 2)
    expect(request).toContain('first question')
    expect(request).toContain('first answer')
    expect(request).toContain('second question')
    expect(request).not.toContain('SUMMARY')
    expect(request).not.toContain(COMPACTION_QUESTION)
    // The summary is still stored (and shown).
    expect(kinds(await test.history())).toContain('summary')
  })

  it('prunes old tool outputs once the loop is done, unless pruning is off', async () => {
    const script = () => [
      toolReply(Array.from({ length: 7 }, (_, index) => ({ id: `big_${index}`, name: 'big', input: {} }))),
      textReply('read them'),
      textReply('two'),
      textReply('three'),
    ]
    const withBigTool = async (prune: boolean) => {
      const test = await setup(script(), { compaction: { prune } })
      test.dependencies.tools = new ToolRegistry([
        defineTool({
          id: 'big',
          description: 'Returns a lot',
          parameters: z.object({}),
          execute: async () => ({ title: 'big', output: 'x'.repeat(40_000) }),
        }) as ToolDefinition,
      ])
      for (const text of ['one', 'two', 'three']) {
        await test.prompt(text)
        await test.run()
      }
      const tools = async () => (await test.history()).flatMap((entry) => entry.parts).filter((part) => part.type === 'tool')
      return { test, tools }
    }
    const isCleared = (part: Part) => part.type === 'tool' && part.state.status === 'completed' && part.state.time.compacted !== undefined
    const { test, tools } = await withBigTool(true)
    // It runs in the background once the session is idle.
    await expect.poll(async () => (await tools()).filter(isCleared).length).toBe(3)
    const cleared = (await tools()).filter(isCleared)
    expect(cleared.map((part) => part.type === 'tool' && part.callID)).toEqual(['big_0', 'big_1', 'big_2'])
    // Kept in storage, and announced.
    expect(cleared.every((part) => part.state.status === 'completed' && part.state.output.length === 40_000)).toBe(true)
    expect(test.events.filter((event) => event.type === 'part.updated' && event.part.type === 'tool' && event.part.state.status === 'completed' && event.part.state.time.compacted)).toHaveLength(3)
    await test.prompt('four')
    await test.run()
    expect(count(sent(test, 4), CLEARED_TOOL_TEXT)).toBe(3)

    const off = await withBigTool(false)
    expect((await off.tools()).some(isCleared)).toBe(false)
  })

  describe('before a request is sent', () => {
    const TINY_USABLE = 36_000
    /** Two turns of about 20,000 tokens each on the large model, then a prompt to the smaller one. */
    async function switchedToTiny(options: Parameters<typeof setup>[1]) {
      const test = await setup([textReply('first answer'), textReply('second answer')], options)
      await test.prompt(`first question ${'a '.repeat(40_000)}`)
      await test.run()
      await test.prompt(`second question ${'b '.repeat(40_000)}`)
      await test.run()
      await createUserMessage(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'third question' }], model: TINY })
      await test.run()
      // What each request to the smaller model carried, by opencode's count (a quarter of its JSON length).
      const sizes = test.tiny.model.doStreamCalls.map((call) => Math.round(JSON.stringify([call.prompt, call.tools ?? []]).length / 4))
      return { ...test, sizes }
    }

    it('compacts a history too large for the model first, then answers the prompt from the summary', async () => {
      const test = await switchedToTiny({ tinyReplies: [textReply('SUMMARY of both turns'), textReply('third answer')] })
      const history = await test.history()
      expect(kinds(history).slice(4)).toEqual(['user:third question', 'marker', 'summary', 'user:third question', 'assistant'])
      expect(history[5]!.parts[0]).toMatchObject({ type: 'compaction', auto: true, overflow: true })
      expect(test.tiny.model.doStreamCalls).toHaveLength(2)
      const [summariser, replay] = test.tiny.model.doStreamCalls.map((call) => JSON.stringify(call.prompt))
      expect(summariser).toContain('Write an anchored summary of the conversation above')
      // The summariser's own input was cut to its context: the oldest turn left out, and said so.
      expect(summariser).toContain('The 2 oldest messages of this conversation were left out')
      expect(summariser).not.toContain('first question')
      expect(summariser).toContain('second question')
      expect(replay).toContain('SUMMARY of both turns')
      expect(count(replay!, 'third question')).toBe(1)
      expect(replay).not.toContain('first question')
      expect(textOf(history.at(-1)!.parts)).toBe('third answer')
      expect(test.sizes.every((size) => size < TINY_USABLE)).toBe(true)
      expect(test.events.some((event) => event.type === 'session.error')).toBe(false)
    })

    it('sends the first request after a compaction even when it still looks too large, and compacts no more', async () => {
      const test = await switchedToTiny({ tinyReplies: [textReply(`SUMMARY ${'s'.repeat(160_000)}`), textReply('third answer')] })
      const history = await test.history()
      expect(kinds(history).filter((kind) => kind === 'summary')).toHaveLength(1)
      expect(test.tiny.model.doStreamCalls).toHaveLength(2)
      expect(test.sizes[1]).toBeGreaterThan(TINY_USABLE)
      expect(textOf(history.at(-1)!.parts)).toBe('third answer')
    })

    it('compacts within a turn when a tool output made the next step too large, keeping the turn\'s work in the summary', async () => {
      // Four outputs of 45,000 characters (each under the tools' own cut): about 45,000 tokens, over 36,000.
      const calls = Array.from({ length: 4 }, (_, index) => ({ id: `call_big_${index}`, name: 'big', input: {} }))
      const test = await setup([], { tinyReplies: [toolReply(calls), textReply('SUMMARY of the big read'), textReply('carried on')] })
      test.dependencies.tools = new ToolRegistry([
        defineTool({ id: 'big', description: 'Returns a lot', parameters: z.object({}), execute: async () => ({ title: 'big', output: 'x'.repeat(45_000) }) }) as ToolDefinition,
      ])
      await createUserMessage(test.context, { sessionID: test.session.id, parts: [{ type: 'text', text: 'read the big thing' }], model: TINY })
      await test.run()
      const history = await test.history()
      expect(kinds(history)).toEqual(['user:read the big thing', 'assistant', 'marker', 'summary', 'continue', 'assistant'])
      expect(history[2]!.parts[0]).not.toHaveProperty('overflow')
      const requests = test.tiny.model.doStreamCalls.map((call) => JSON.stringify(call.prompt))
      expect(requests).toHaveLength(3)
      expect(requests[1]).toContain('read the big thing')
      expect(requests[1]).toContain('call_big_3')
      expect(requests[2]).toContain('SUMMARY of the big read')
      expect(requests[2]).not.toContain('x'.repeat(1_000))
      expect(textOf(history.at(-1)!.parts)).toBe('carried on')
    })

    it('sends nothing with automatic compaction off, and stops with what to do', async () => {
      const test = await switchedToTiny({ compaction: { auto: false } })
      expect(test.tiny.model.doStreamCalls).toHaveLength(0)
      const history = await test.history()
      expect(kinds(history).slice(4)).toEqual(['user:third question', 'assistant'])
      const last = history.at(-1)!.info as AssistantMessage
      expect(last).toMatchObject({ finish: 'error', modelID: TINY.modelID, time: { completed: expect.any(Number) } })
      expect(last.error).toMatchObject({
        name: 'ContextOverflowError',
        data: { message: expect.stringMatching(/^The conversation no longer fits the model's context \(about \d+ tokens estimated, 36000 usable\)\. Automatic compaction is off: compact the session now/) },
      })
      expect(test.events).toContainEqual(expect.objectContaining({ type: 'session.error', error: last.error }))
      expect(test.statuses.at(-1)).toEqual({ type: 'idle' })
    })
  })
})
