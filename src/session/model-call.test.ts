import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { streamModelCall, type StepEvent } from './model-call'
import type { StepTools } from '../tools/tool'
import { toMessageError } from './retry'
import { finish, scriptedModel, textReply, toolReply, type ScriptedReply } from '../testing/scripted-model'

function tools(run: StepTools['run'] = async () => ({ title: 't', output: 'done' })): StepTools {
  return {
    definitions: [{ type: 'function', name: 'echo', description: 'Echo.', inputSchema: { type: 'object' } }],
    resolve: (call) => ({ toolName: call.toolName, input: JSON.parse(call.input) as unknown }),
    run,
  }
}

async function collect(reply: ScriptedReply, options: { tools?: StepTools; signal?: AbortSignal } = {}) {
  const { model } = scriptedModel([reply])
  const events: StepEvent[] = []
  for await (const event of streamModelCall({
    model,
    system: 'system',
    messages: [{ role: 'user', content: 'hi' }],
    tools: options.tools ?? tools(),
    maxOutputTokens: 100,
    abortSignal: options.signal ?? new AbortController().signal,
  })) {
    events.push(event)
  }
  return events
}

describe('one model call', () => {
  it('streams text as start, deltas and end, then a step finish with usage and the finish reason', async () => {
    const events = await collect(textReply('Hello there friend', [12, 3]))
    expect(events.map((event) => event.type)).toEqual([
      'start-step',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'finish-step',
    ])
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []))
    expect(deltas.join('')).toBe('Hello there friend')
    expect(events.at(-1)).toMatchObject({ type: 'finish-step', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 3 } })
  })

  it('sends the system prompt, the history and the tool schemas to the provider', async () => {
    const { model } = scriptedModel([textReply('ok')])
    for await (const _ of streamModelCall({
      model,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi' }],
      tools: tools(),
      maxOutputTokens: 64,
      abortSignal: new AbortController().signal,
    })) {
      // drain
    }
    const call = model.doStreamCalls[0]!
    expect(call.prompt).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ])
    expect(call.tools).toEqual([{ type: 'function', name: 'echo', description: 'Echo.', inputSchema: { type: 'object' } }])
    expect(call.maxOutputTokens).toBe(64)
  })

  it('runs tool calls in parallel and ends the step only after every result, in the order they finish', async () => {
    let releaseSlow!: () => void
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve))
    const run: StepTools['run'] = async (call) => {
      if (call.toolCallId === 'slow') await slow
      else releaseSlow()
      return { title: call.toolCallId, output: `${call.toolCallId} done` }
    }
    const events = await collect(
      toolReply([
        { id: 'slow', name: 'echo', input: { n: 1 } },
        { id: 'fast', name: 'echo', input: { n: 2 } },
      ]),
      { tools: tools(run) },
    )
    expect(events.filter((event) => event.type !== 'start-step').map((event) => `${event.type}:${'toolCallId' in event ? event.toolCallId : ''}`)).toEqual([
      'tool-call:slow',
      'tool-call:fast',
      'tool-result:fast',
      'tool-result:slow',
      'finish-step:',
    ])
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({ input: { n: 1 } })
  })

  it('reports a tool that throws as a tool error the step goes on from', async () => {
    const events = await collect(toolReply([{ id: 'a', name: 'echo', input: {} }]), {
      tools: tools(async () => {
        throw new Error('disk full')
      }),
    })
    expect(events.find((event) => event.type === 'tool-error')).toMatchObject({ toolCallId: 'a', error: new Error('disk full') })
    expect(events.at(-1)?.type).toBe('finish-step')
  })

  it('ends a cancelled step even when a tool ignores the abort, and drops what the tool says afterwards', async () => {
    const controller = new AbortController()
    let finishTool!: () => void
    const run: StepTools['run'] = () =>
      new Promise((resolve) => {
        finishTool = () => resolve({ title: 'late', output: 'late' })
        controller.abort()
      })
    const events = await collect(toolReply([{ id: 'a', name: 'echo', input: {} }]), { tools: tools(run), signal: controller.signal })
    finishTool()
    expect(events.map((event) => event.type)).toEqual(['start-step', 'tool-call', 'abort'])
  })

  it('turns an error object sent inside the stream into an API error with its status, so retry can read it', async () => {
    const chunks: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'error', error: { error: { message: 'Overloaded, try again', type: 'overloaded_error', code: 529 } } },
    ]
    const events = await collect({ chunks })
    const error = events.find((event) => event.type === 'error')
    expect(error).toBeDefined()
    expect(toMessageError((error as { error: unknown }).error, { providerID: 'p' })).toMatchObject({
      name: 'APIError',
      data: { message: 'Overloaded, try again', statusCode: 529, isRetryable: true },
    })
    expect(events.some((event) => event.type === 'finish-step')).toBe(false)
  })

  it('says so when the stream ends with no output and no finish', async () => {
    const events = await collect({ chunks: [{ type: 'stream-start', warnings: [] }] })
    expect(events.at(-1)).toMatchObject({ type: 'error', error: new Error('No output generated: the model stream ended without a finish.') })
  })

  it('closes a reply cut off after some output with the finish reason "other"', async () => {
    const events = await collect({
      chunks: [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'half' },
      ],
    })
    expect(events.at(-1)).toMatchObject({ type: 'finish-step', finishReason: 'other' })
  })

  it('passes a thrown provider error through as an error event', async () => {
    const events = await collect({ throws: new Error('boom') })
    expect(events).toEqual([{ type: 'error', error: new Error('boom') }])
  })

  it('keeps a finish it already has: a tool-calls finish reason reaches the step finish', async () => {
    const events = await collect({ chunks: [{ type: 'tool-call', toolCallId: 'x', toolName: 'echo', input: '{}' }, finish('tool-calls')] })
    expect(events.at(-1)).toMatchObject({ type: 'finish-step', finishReason: 'tool-calls' })
  })

  it('reads the provider stream only a bounded way ahead of a consumer that is waiting on storage', async () => {
    let pulled = 0
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' })
          },
          pull(controller) {
            pulled++
            if (pulled > 5_000) controller.close()
            else controller.enqueue({ type: 'text-delta', id: 't', delta: 'x' })
          },
        }),
      }),
    })
    const events = streamModelCall({
      model,
      system: '',
      messages: [{ role: 'user', content: 'hi' }],
      tools: tools(),
      maxOutputTokens: 10,
      abortSignal: new AbortController().signal,
    })
    await events.next()
    // The consumer now stalls; give the producer every chance to run ahead.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(pulled).toBeGreaterThan(100)
    expect(pulled).toBeLessThan(600)
    let deltas = 0
    for await (const event of events) if (event.type === 'text-delta') deltas++
    expect(deltas).toBe(5_000)
  })
})
