import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { APICallError, generateText, isStepCount, streamText, tool, type LanguageModel, type TextStreamPart, type ToolSet } from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startMockModelServer, type MockModelServer } from './mock-model-server.mjs'
import {
  ModelScript,
  chunk,
  die,
  error,
  hang,
  longText,
  manyDeltas,
  rateLimited,
  stream,
  streamText as scriptedText,
  text,
  toolCall,
  type WireFormat,
} from '../e2e/testing/model-script'

// The e2e mock model server, driven through the real provider code (@ai-sdk/openai-compatible over HTTP), so the
// wire format it speaks is the one the app's worker will parse.

let server: MockModelServer
let model: ModelScript

beforeAll(async () => {
  server = await startMockModelServer({ port: 0 })
  model = new ModelScript(server.url)
})
afterAll(() => server.close())
beforeEach(() => model.reset())

function provider(apiKey = 'sk-test') {
  return createOpenAICompatible({ name: 'mock', baseURL: model.baseURL, apiKey, includeUsage: true })
}

const add = tool({ description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) })

/** Runs one streamText call and collects every fullStream part (errors arrive as parts, not throws). */
async function run(options: { modelId?: string; tools?: ToolSet; abortSignal?: AbortSignal; onPart?: (part: TextStreamPart<ToolSet>) => void } = {}) {
  const result = streamText({
    model: provider().chatModel(options.modelId ?? 'mock-model'),
    prompt: 'Say something',
    tools: options.tools,
    maxRetries: 0,
    abortSignal: options.abortSignal,
    onError: () => {},
  })
  const parts: TextStreamPart<ToolSet>[] = []
  let thrown: unknown
  try {
    for await (const part of result.fullStream) {
      parts.push(part)
      options.onPart?.(part)
    }
  } catch (err) {
    // A connection cut mid-body errors the stream itself instead of arriving as an error part.
    thrown = err
  }
  const of = <T extends TextStreamPart<ToolSet>['type']>(type: T) =>
    parts.filter((part): part is Extract<TextStreamPart<ToolSet>, { type: T }> => part.type === type)
  return {
    parts,
    of,
    text: of('text-delta').map((part) => part.text).join(''),
    finish: of('finish')[0],
    errors: of('error').map((part) => part.error),
    thrown,
  }
}

describe('mock model server: streaming through @ai-sdk/openai-compatible', () => {
  it('streams text in split deltas and finishes with stop', async () => {
    await model.push(scriptedText('Hello, streaming world', { split: 3 }))
    const out = await run()
    expect(out.errors).toEqual([])
    expect(out.text).toBe('Hello, streaming world')
    expect(out.of('text-delta')).toHaveLength(8)
    expect(out.finish?.finishReason).toBe('stop')
  })

  it('streams reasoning_content as reasoning parts before the text', async () => {
    await model.push(stream([chunk.reasoning('Weighing the options', 5), chunk.text('Answer')]))
    const out = await run()
    expect(out.of('reasoning-delta').map((part) => part.text).join('')).toBe('Weighing the options')
    expect(out.of('reasoning-delta')).toHaveLength(4)
    expect(out.text).toBe('Answer')
    const order = out.parts.map((part) => part.type)
    expect(order.indexOf('reasoning-end')).toBeLessThan(order.indexOf('text-start'))
  })

  it('assembles a tool call whose arguments are split across chunks', async () => {
    await model.push(toolCall('call_1', 'add', { a: 2, b: 3 }, { split: 3, text: 'Let me add.' }))
    const out = await run({ tools: { add } })
    expect(out.errors).toEqual([])
    expect(out.text).toBe('Let me add.')
    const calls = out.of('tool-call')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ toolCallId: 'call_1', toolName: 'add', input: { a: 2, b: 3 } })
    expect(out.finish?.finishReason).toBe('tool-calls')
  })

  it('continues a tool call from chunks that omit id and name, and runs parallel calls', async () => {
    await model.push(
      stream([
        { toolCall: { id: 'call_a', name: 'add', arguments: '{"a":1,' } },
        { toolCall: { id: 'call_b', name: 'add', arguments: '{"a":10,' } },
        { toolCall: { index: 0, arguments: '"b":2}' } },
        { toolCall: { id: 'call_b', arguments: '"b":20}' } },
      ]),
    )
    const out = await run({ tools: { add } })
    expect(out.errors).toEqual([])
    expect(out.of('tool-call').map((part) => [part.toolCallId, part.input])).toEqual([
      ['call_a', { a: 1, b: 2 }],
      ['call_b', { a: 10, b: 20 }],
    ])
  })

  it('delivers scripted usage in the finish part', async () => {
    await model.push(
      text('Counted', {
        usage: {
          prompt_tokens: 1200,
          completion_tokens: 300,
          prompt_tokens_details: { cached_tokens: 1000 },
          completion_tokens_details: { reasoning_tokens: 120 },
        },
      }),
    )
    const out = await run()
    expect(out.finish?.totalUsage).toMatchObject({
      inputTokens: 1200,
      inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 1000 },
      outputTokens: 300,
      outputTokenDetails: { textTokens: 180, reasoningTokens: 120 },
      totalTokens: 1500,
    })
  })

  it('answers an empty queue with the default text and usage', async () => {
    const out = await run()
    expect(out.text).toBe('(no scripted response)')
    expect(out.finish?.totalUsage.inputTokens).toBe(10)
    expect(out.finish?.totalUsage.outputTokens).toBeGreaterThan(0)
    const [request] = await model.requests()
    expect(request?.served).toEqual({ source: 'default', type: 'text' })
  })

  it('surfaces a 429 with retry-after as an APICallError', async () => {
    await model.push(rateLimited(1))
    const out = await run()
    expect(out.errors).toHaveLength(1)
    const err = out.errors[0]
    expect(APICallError.isInstance(err)).toBe(true)
    const apiError = err as APICallError
    expect(apiError.statusCode).toBe(429)
    expect(apiError.responseHeaders?.['retry-after']).toBe('1')
    expect(apiError.isRetryable).toBe(true)
    expect(apiError.message).toBe('Rate limit reached')
  })

  it('passes retry-after-ms and any scripted body through', async () => {
    await model.push(error(503, { headers: { 'retry-after-ms': '250' }, body: { error: { message: 'overloaded', type: 'server_error', code: 'overloaded' } } }))
    const [err] = (await run()).errors as APICallError[]
    expect(err?.statusCode).toBe(503)
    expect(err?.responseHeaders?.['retry-after-ms']).toBe('250')
    expect(err?.message).toBe('overloaded')
  })

  it('surfaces a 500 as an APICallError', async () => {
    await model.push(error(500, { message: 'boom' }))
    const out = await run()
    expect(out.text).toBe('')
    const err = out.errors[0] as APICallError
    expect(APICallError.isInstance(err)).toBe(true)
    expect(err.statusCode).toBe(500)
    expect(err.message).toBe('boom')
  })

  it('hangs after N deltas until the client aborts, and records the abort', async () => {
    await model.push(hang(2))
    const controller = new AbortController()
    let deltas = 0
    const out = await run({
      abortSignal: controller.signal,
      onPart: (part) => {
        if (part.type === 'text-delta' && ++deltas === 2) controller.abort()
      },
    })
    expect(out.text).toBe('partial 1 partial 2 ')
    expect(out.finish).toBeUndefined()
    const [request] = await model.waitForRequests(1, { settled: true })
    expect(request?.outcome).toBe('client-closed')
  })

  it('dies after N deltas: the stream fails and the request is recorded as died', async () => {
    await model.push(die(1))
    const out = await run()
    expect(out.text).toBe('partial 1 ')
    expect(out.finish).toBeUndefined()
    expect(String((out.thrown as Error | undefined)?.cause)).toMatch(/terminated/)
    const [request] = await model.waitForRequests(1, { settled: true })
    expect(request?.outcome).toBe('died')
  })

  it('passes an in-stream error event through as an error part', async () => {
    await model.push(stream([chunk.text('Half'), chunk.error('upstream went away')], { finish: null, usage: null }))
    const out = await run()
    expect(out.text).toBe('Half')
    expect(out.errors.map((e) => (e as { message?: string }).message)).toContain('upstream went away')
  })

  it('answers non-streaming requests (generateText) with one JSON completion', async () => {
    await model.push(stream([chunk.reasoning('Hmm'), chunk.text('Title: ', 2), chunk.text('Parser fix')]))
    const result = await generateText({ model: provider().chatModel('mock-small'), prompt: 'Title this', maxRetries: 0 })
    expect(result.text).toBe('Title: Parser fix')
    expect(result.reasoningText).toBe('Hmm')
    expect(result.finishReason).toBe('stop')
    const [request] = await model.requests()
    expect(request?.body?.stream).toBeUndefined()
  })

  it('paces deltas with chunkDelayMs and holds the answer for delayMs', async () => {
    await model.push(scriptedText('abc', { split: 1, chunkDelayMs: 30, delayMs: 50 }))
    const started = performance.now()
    const arrivals: number[] = []
    const out = await run({ onPart: (part) => part.type === 'text-delta' && arrivals.push(performance.now() - started) })
    expect(out.text).toBe('abc')
    // Bounds leave room for client-side jitter (a late first delta compresses the gaps); unpaced, the three deltas
    // would arrive within a millisecond of each other and the answer at once.
    expect(arrivals[0]).toBeGreaterThanOrEqual(40)
    expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(30)
  })

  it('holds a reply scripted with `hold` until the test releases it; a released name answers at once', async () => {
    await model.push(scriptedText('held', { hold: 'gate' }), { model: 'mock-model' })
    await model.push(scriptedText('other'), { model: 'mock-small' })
    let answered = false
    const first = run().then((out) => {
      answered = true
      return out
    })
    await model.waitForRequests(1)
    // A whole other call comes and goes meanwhile, and the held one has still not answered.
    expect((await run({ modelId: 'mock-small' })).text).toBe('other')
    expect(answered).toBe(false)
    await model.release('gate')
    expect((await first).text).toBe('held')
    // Released stays released until the next reset.
    await model.push(scriptedText('after', { hold: 'gate' }))
    expect((await run()).text).toBe('after')
  })

  it('streams many small deltas through the SDK in order', async () => {
    await model.push(manyDeltas(3_000))
    const out = await run()
    expect(out.of('text-delta')).toHaveLength(3_000)
    expect(out.text).toBe(longText(12_000))
  })
})

describe('mock model server: scripting and the request log', () => {
  it('records method, redacted headers, key suffix and the parsed body', async () => {
    await run({ tools: { add } })
    const [request] = await model.waitForRequests(1, { settled: true })
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'mock-model',
      hasAuthorization: true,
      apiKeyLast4: 'test',
      outcome: 'completed',
    })
    expect(request?.headers.authorization).toBe('Bearer <redacted>')
    expect(request?.headers['content-type']).toContain('application/json')
    expect(request?.body).toMatchObject({ model: 'mock-model', stream: true, stream_options: { include_usage: true } })
    expect(request?.body?.messages).toEqual([{ role: 'user', content: 'Say something' }])
    expect(request?.body?.tools?.[0]?.function.name).toBe('add')
    expect(JSON.stringify(request)).not.toContain('sk-test')
  })

  it('serves per-model queues first, then the shared queue, then the default', async () => {
    await model.push(text('main 1'), { model: 'mock-model' })
    await model.push(text('shared 1'))
    expect(await model.pending()).toEqual({ 'mock-model': 1, shared: 1 })
    expect((await run({ modelId: 'mock-small' })).text).toBe('shared 1')
    expect((await run({ modelId: 'mock-model' })).text).toBe('main 1')
    expect((await run({ modelId: 'mock-model' })).text).toBe('(no scripted response)')
    const served = (await model.requests()).map((r) => [r.model, r.served?.source])
    expect(served).toEqual([
      ['mock-small', 'shared'],
      ['mock-model', 'model'],
      ['mock-model', 'default'],
    ])
    expect(await model.pending()).toEqual({})
  })

  it('repeats an entry N times', async () => {
    await model.push([text('again', { repeat: 2 }), text('then this')])
    const texts = []
    for (let i = 0; i < 3; i++) texts.push((await run()).text)
    expect(texts).toEqual(['again', 'again', 'then this'])
  })

  it('times out a wait with the requests seen so far', async () => {
    await run()
    await expect(model.waitForRequests(2, { timeoutMs: 100 })).rejects.toThrow(/waiting for 2 .*have 1/)
  })

  it('wakes a waiting long-poll as soon as the request arrives', async () => {
    const waiting = model.waitForRequests(1)
    await run()
    expect(await waiting).toHaveLength(1)
  })

  it('rejects a malformed script with the reason', async () => {
    await expect(model.push({ type: 'stream', chunks: [{ words: 'x' }] } as never)).rejects.toThrow(/chunks\[0\]/)
    expect(await model.pending()).toEqual({})
  })

  it('lists scripted model ids and can fail /v1/models', async () => {
    const list = async () => {
      const response = await fetch(`${model.baseURL}/models`, { headers: { Authorization: 'Bearer sk-list-1234' } })
      return { status: response.status, body: (await response.json()) as { data?: { id: string }[] } }
    }
    expect((await list()).body.data?.map((m) => m.id)).toEqual(['mock-model', 'mock-small'])
    await model.setModels(['big', 'small'])
    expect((await list()).body.data?.map((m) => m.id)).toEqual(['big', 'small'])
    await model.failModels({ status: 401, body: { error: { message: 'bad key' } }, repeat: 1 })
    expect(await list()).toEqual({ status: 401, body: { error: { message: 'bad key' } } })
    expect((await list()).status).toBe(200)
    const logged = await model.requests({ path: '/v1/models' })
    expect(logged.map((r) => r.apiKeyLast4)).toEqual(['1234', '1234', '1234', '1234'])
    expect(await model.requests()).toEqual([])
  })

  it('sends CORS headers on preflight, streams and errors', async () => {
    const preflight = await fetch(`${model.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:4173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('*')

    await model.push(rateLimited(2))
    const failed = await fetch(`${model.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'mock-model', stream: true }) })
    expect(failed.status).toBe(429)
    expect(failed.headers.get('access-control-allow-origin')).toBe('*')
    expect(failed.headers.get('access-control-expose-headers')).toBe('*')
    expect(failed.headers.get('retry-after')).toBe('2')

    const health = await fetch(`${server.url}/health`)
    expect([health.status, await health.text(), health.headers.get('access-control-allow-origin')]).toEqual([200, 'ok', '*'])
  })

  it('writes 30,000 deltas fast (batched writes, no per-delta timers)', async () => {
    await model.push(manyDeltas(30_000))
    const started = performance.now()
    const response = await fetch(`${model.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'mock-model', stream: true }) })
    const events = (await response.text()).split('\n\n').filter(Boolean)
    const elapsed = performance.now() - started
    // 30,000 deltas + finish + usage + [DONE]; about 0.25 s on 2 cores, the bound is generous.
    expect(events).toHaveLength(30_003)
    const streamed = events.slice(0, 30_000).map((event) => JSON.parse(event.slice(6)).choices[0].delta.content).join('')
    expect(streamed).toBe(longText(120_000))
    expect(elapsed).toBeLessThan(5_000)
  })

  it('ends a stream as OpenAI does: finish chunk, usage chunk with no choices, [DONE]', async () => {
    await model.push(scriptedText('ab', { split: 1 }))
    const response = await fetch(`${model.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'mock-model', stream: true, stream_options: { include_usage: true } }),
    })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const events = (await response.text()).split('\n\n').filter(Boolean)
    expect(events.at(-1)).toBe('data: [DONE]')
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')))
    expect(chunks.map((c) => c.choices[0]?.delta ?? null)).toEqual([{ role: 'assistant', content: 'a' }, { content: 'b' }, {}, null])
    expect(chunks[2].choices[0].finish_reason).toBe('stop')
    expect(chunks[3]).toMatchObject({ object: 'chat.completion.chunk', model: 'mock-model', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })
  })

  it('cuts open streams on reset', async () => {
    await model.push(hang(1))
    const response = await fetch(`${model.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'mock-model', stream: true }) })
    const reader = response.body!.getReader()
    await reader.read()
    await model.reset()
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'ended'
      })(),
    ).rejects.toThrow()
  })
})

// ── the other three wire formats, through their own providers ─────────────────────────────────────────────────

interface FormatCase {
  format: WireFormat
  /** The SDK model for `modelId`, pointed at the mock server the way the app points a provider at it. */
  model: (modelId: string) => LanguageModel
  /** The tool result as the second request of a tool turn carries it, in this format. */
  toolResult: (body: Record<string, unknown>) => unknown
  /** The secret header the key goes in. */
  keyHeader: string
}

const KEY = 'sk-format-test-7788'

const FORMAT_CASES: FormatCase[] = [
  {
    format: 'responses',
    model: (id) => createOpenAI({ apiKey: KEY, baseURL: `${server.url}/v1` }).responses(id),
    toolResult: (body) => (body.input as Array<Record<string, unknown>>).find((item) => item.type === 'function_call_output'),
    keyHeader: 'authorization',
  },
  {
    format: 'messages',
    model: (id) => createAnthropic({ apiKey: KEY, baseURL: `${server.url}/v1` }).languageModel(id),
    toolResult: (body) =>
      (body.messages as Array<{ content: Array<Record<string, unknown>> }>).flatMap((message) => message.content).find((part) => part.type === 'tool_result'),
    keyHeader: 'x-api-key',
  },
  {
    format: 'gemini',
    model: (id) => createGoogleGenerativeAI({ apiKey: KEY, baseURL: `${server.url}/v1beta` }).languageModel(id),
    toolResult: (body) =>
      (body.contents as Array<{ parts: Array<Record<string, unknown>> }>).flatMap((content) => content.parts).find((part) => 'functionResponse' in part),
    keyHeader: 'x-goog-api-key',
  },
]

/** As `run`, for any SDK model; `steps` > 1 runs the tools and calls the model again. */
async function runWith(model: LanguageModel, options: { tools?: ToolSet; steps?: number; abortSignal?: AbortSignal; onPart?: (part: TextStreamPart<ToolSet>) => void } = {}) {
  const result = streamText({
    model,
    prompt: 'Say something',
    tools: options.tools,
    maxRetries: 0,
    stopWhen: isStepCount(options.steps ?? 1),
    abortSignal: options.abortSignal,
    onError: () => {},
  })
  const parts: TextStreamPart<ToolSet>[] = []
  let thrown: unknown
  try {
    for await (const part of result.fullStream) {
      parts.push(part)
      options.onPart?.(part)
    }
  } catch (err) {
    thrown = err
  }
  const of = <T extends TextStreamPart<ToolSet>['type']>(type: T) =>
    parts.filter((part): part is Extract<TextStreamPart<ToolSet>, { type: T }> => part.type === type)
  return {
    parts,
    of,
    text: of('text-delta').map((part) => part.text).join(''),
    reasoning: of('reasoning-delta').map((part) => part.text).join(''),
    finishes: of('finish-step').map((part) => part.finishReason),
    finish: of('finish')[0],
    errors: of('error').map((part) => part.error),
    thrown,
  }
}

const addAndRun = tool({
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
})

describe.each(FORMAT_CASES)('mock model server: $format through its own provider', ({ format, model: modelFor, toolResult, keyHeader }) => {
  it('streams reasoning, then text in split deltas, and finishes with stop', async () => {
    await model.push(scriptedText('Hello, streaming world', { split: 3, reasoning: 'Weighing it' }))
    const out = await runWith(modelFor('mock-model'))
    expect(out.errors).toEqual([])
    expect(out.reasoning).toBe('Weighing it')
    expect(out.text).toBe('Hello, streaming world')
    expect(out.of('text-delta').length).toBeGreaterThan(1)
    const order = out.parts.map((part) => part.type)
    expect(order.indexOf('reasoning-end')).toBeLessThan(order.indexOf('text-start'))
    expect(out.finish?.finishReason).toBe('stop')
    const [request] = await model.requests<Record<string, unknown>>({ format })
    expect(request).toMatchObject({ format, model: 'mock-model', apiKeyLast4: '7788', outcome: 'completed' })
    expect(request?.headers[keyHeader]).toMatch(/<redacted>/)
    expect(JSON.stringify(request)).not.toContain(KEY)
  })

  it('runs a multi-step tool turn: parallel calls with split arguments, then the results go back in this format', async () => {
    await model.push([
      stream([
        chunk.reasoning('Two sums'),
        { toolCall: { id: 'call_a', name: 'add', arguments: '{"a":1,' } },
        { toolCall: { id: 'call_b', name: 'add', arguments: '{"a":10,' } },
        { toolCall: { index: 0, arguments: '"b":2}' } },
        { toolCall: { id: 'call_b', arguments: '"b":20}' } },
      ]),
      text('Sums are 3 and 30'),
    ])
    const out = await runWith(modelFor('mock-model'), { tools: { add: addAndRun }, steps: 2 })
    expect(out.errors).toEqual([])
    expect(out.of('tool-call').map((part) => [part.toolName, part.input])).toEqual([
      ['add', { a: 1, b: 2 }],
      ['add', { a: 10, b: 20 }],
    ])
    expect(out.finishes).toEqual(['tool-calls', 'stop'])
    expect(out.text).toBe('Sums are 3 and 30')
    const requests = await model.requests<Record<string, unknown>>({ format })
    expect(requests).toHaveLength(2)
    // The result is a JSON string in Responses and Anthropic, an object in Gemini.
    expect(JSON.stringify(toolResult(requests[1]!.body!))).toMatch(/\\?"sum\\?":3\b/)
  })

  it('delivers scripted usage, cached tokens included, in the finish part', async () => {
    await model.push(
      text('Counted', {
        usage: {
          prompt_tokens: 1200,
          completion_tokens: 300,
          prompt_tokens_details: { cached_tokens: 1000 },
          completion_tokens_details: { reasoning_tokens: 120 },
        },
      }),
    )
    const usage = (await runWith(modelFor('mock-model'))).finish?.totalUsage
    expect(usage).toMatchObject({ inputTokens: 1200, inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 1000 }, outputTokens: 300 })
    // Anthropic reports no reasoning token count of its own.
    if (format !== 'messages') expect(usage?.outputTokenDetails).toMatchObject({ textTokens: 180, reasoningTokens: 120 })
  })

  it('surfaces a 429 with retry-after as an APICallError in the provider’s own error shape', async () => {
    await model.push(rateLimited(1))
    const [err] = (await runWith(modelFor('mock-model'))).errors as APICallError[]
    expect(APICallError.isInstance(err)).toBe(true)
    expect(err?.statusCode).toBe(429)
    expect(err?.responseHeaders?.['retry-after']).toBe('1')
    expect(err?.isRetryable).toBe(true)
    expect(err?.message).toBe('Rate limit reached')
  })

  it('passes an in-stream error through as an error part after the text so far', async () => {
    await model.push(stream([chunk.text('Half'), chunk.error('upstream went away')], { finish: null, usage: null }))
    const out = await runWith(modelFor('mock-model'))
    expect(out.text).toBe('Half')
    expect(out.errors.map((e) => (e as { message?: string }).message)).toContain('upstream went away')
  })

  it('hangs after N deltas until the client aborts, and records the abort', async () => {
    await model.push(hang(2))
    const controller = new AbortController()
    let deltas = 0
    const out = await runWith(modelFor('mock-model'), {
      abortSignal: controller.signal,
      onPart: (part) => {
        if (part.type === 'text-delta' && ++deltas === 2) controller.abort()
      },
    })
    expect(out.text).toBe('partial 1 partial 2 ')
    expect(out.finish).toBeUndefined()
    const [request] = await model.waitForRequests(1, { settled: true, format })
    expect(request?.outcome).toBe('client-closed')
  })
})

describe('mock model server: format specifics', () => {
  it('Anthropic: thinking blocks end with a signature, and usage splits input from cache reads and writes', async () => {
    await model.push(
      scriptedText('Done', {
        reasoning: 'Think',
        usage: { prompt_tokens: 500, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 300, cache_write_tokens: 150 } },
      }),
    )
    const out = await runWith(FORMAT_CASES[1]!.model('mock-model'))
    const signature = out.of('reasoning-delta').find((part) => part.providerMetadata?.anthropic?.signature)
    expect(signature?.providerMetadata?.anthropic?.signature).toMatch(/^mock-signature-/)
    expect(out.finish?.totalUsage).toMatchObject({
      inputTokens: 500,
      inputTokenDetails: { noCacheTokens: 50, cacheReadTokens: 300, cacheWriteTokens: 150 },
      outputTokens: 40,
    })
  })

  it('Anthropic: an overloaded_error event in the stream is a retryable 529', async () => {
    await model.push(stream([chunk.text('Hal'), chunk.error('Overloaded')], { finish: null, usage: null }))
    const [err] = (await runWith(FORMAT_CASES[1]!.model('mock-model'))).errors as Array<{ statusCode?: number; isRetryable?: boolean; message: string }>
    expect(err).toMatchObject({ message: 'Overloaded', statusCode: 529, isRetryable: true })
  })

  it('Responses: response.failed in the stream becomes an error part', async () => {
    await model.push(stream([chunk.text('So far'), chunk.error('The model failed', { code: 'server_error', failed: true })], { finish: null, usage: null }))
    const out = await runWith(FORMAT_CASES[0]!.model('mock-model'))
    expect(out.text).toBe('So far')
    expect(out.errors.map((e) => (e as { message?: string }).message)).toContain('The model failed')
  })

  it('answers HTTP errors in each provider’s own body shape', async () => {
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      await model.push(error(529, { message: 'Busy' }))
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      return response.json()
    }
    expect(await post('/v1/responses', { model: 'm', stream: true })).toEqual({ error: { message: 'Busy', type: 'mock_error', code: 529 } })
    expect(await post('/v1/messages', { model: 'm', stream: true })).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Busy' } })
    expect(await post('/v1beta/models/m:streamGenerateContent?alt=sse', {})).toEqual({ error: { code: 529, message: 'Busy', status: 'INTERNAL' } })
  })

  it('lists models in each provider’s shape', async () => {
    const anthropic = await (await fetch(`${server.url}/v1/models?limit=1000`, { headers: { 'anthropic-version': '2023-06-01', 'x-api-key': KEY } })).json()
    expect(anthropic).toMatchObject({ data: [{ type: 'model', id: 'mock-model' }, { type: 'model', id: 'mock-small' }], has_more: false })
    const gemini = await (await fetch(`${server.url}/v1beta/models?pageSize=1000`, { headers: { 'x-goog-api-key': KEY } })).json()
    expect(gemini.models.map((entry: { name: string }) => entry.name)).toEqual(['models/mock-model', 'models/mock-small'])
    const logged = await model.requests({ path: '/v1beta/models' })
    expect(logged[0]?.headers['x-goog-api-key']).toBe('<redacted>')
  })
})
