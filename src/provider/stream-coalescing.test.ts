import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { createLanguageModel } from './language-model'
import type { ProviderConfig } from '../core/provider/schema'
import { chatCompletionPiece, coalesceEventStream } from './stream-coalescing'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', ...extra, choices: [{ index: 0, delta, finish_reason: null }] })
const sse = (...datas: string[]) => datas.map((data) => `data: ${data}\n\n`).join('')

/** Feeds each string as one network read and returns what came out of each read, before the stream ends. */
async function perRead(reads: (string | Uint8Array)[]): Promise<string[]> {
  const transform = coalesceEventStream()
  const writer = transform.writable.getWriter()
  const reader = transform.readable.getReader()
  const outputs: string[] = []
  for (const read of reads) {
    void writer.write(typeof read === 'string' ? encoder.encode(read) : read)
    // A read that completes no event yields nothing; only wait for output when one must come.
    const text = typeof read === 'string' ? read : decoder.decode(read)
    if (text.includes('\n\n') || text.includes('\r\n\r\n')) outputs.push(decoder.decode((await reader.read()).value))
    else outputs.push('')
  }
  void writer.close()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    outputs.push(decoder.decode(value))
  }
  return outputs
}

/** The `data:` payloads of an event stream, parsed. */
const datas = (text: string) =>
  text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice(6))

const deltasOf = (text: string) => datas(text).map((data) => (JSON.parse(data) as { choices: { delta: Record<string, unknown> }[] }).choices[0]?.delta)

describe('coalesceEventStream', () => {
  it('merges a read of content deltas into one event with the same text', async () => {
    const [out] = await perRead([sse(chunk({ role: 'assistant', content: 'Hel' }), chunk({ role: 'assistant', content: 'lo, ' }), chunk({ role: 'assistant', content: 'world' }))])
    expect(deltasOf(out ?? '')).toEqual([{ role: 'assistant', content: 'Hello, world' }])
  })

  it('gives each read its output at once and never merges across reads', async () => {
    const outputs = await perRead([sse(chunk({ content: 'a' }), chunk({ content: 'b' })), sse(chunk({ content: 'c' }))])
    expect(outputs.slice(0, 2).map(deltasOf)).toEqual([[{ content: 'ab' }], [{ content: 'c' }]])
  })

  it('keeps apart what is not the same kind of delta, in order', async () => {
    const toolStart = JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } }] }, finish_reason: null }] })
    const finish = JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
    const usage = JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } })
    const input = [
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning_content: 'hard' }),
      chunk({ content: 'a' }),
      chunk({ content: 'b' }, { model: 'other' }),
      chunk({ content: 'c', refusal: 'no' }),
      toolStart,
      finish,
      usage,
      '[DONE]',
    ]
    const [out] = await perRead([sse(...input)])
    expect(datas(out ?? '')).toEqual([chunk({ reasoning_content: 'think hard' }), ...input.slice(2)])
  })

  it('merges across a changed timestamp but not across a different role or choice', async () => {
    const [out] = await perRead([
      sse(chunk({ content: 'a' }, { created: 1 }), chunk({ content: 'b' }, { created: 2 }), chunk({ role: 'assistant', content: 'c' }), chunk({ content: 'd' })),
    ])
    expect(deltasOf(out ?? '')).toEqual([{ content: 'ab' }, { role: 'assistant', content: 'c' }, { content: 'd' }])
  })

  it('merges the argument pieces of a tool call already started, one call at a time', async () => {
    const more = (index: number, text: string) =>
      JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: text } }] }, finish_reason: null }] })
    const [out] = await perRead([sse(more(0, '{"pa'), more(0, 'th":'), more(0, '"a"}'), more(1, '{"x"'), more(1, ':1}'))])
    expect(deltasOf(out ?? '').map((delta) => (delta?.tool_calls as { index: number; function: { arguments: string } }[])[0])).toEqual([
      { index: 0, function: { arguments: '{"path":"a"}' } },
      { index: 1, function: { arguments: '{"x":1}' } },
    ])
  })

  it('passes comments, named events and multi-line data through as they came, ending the run', async () => {
    const events = [`data: ${chunk({ content: 'a' })}`, ': keep-alive', `event: message\ndata: ${chunk({ content: 'b' })}`, `data: {"x":\ndata: 1}`, `data: ${chunk({ content: 'c' })}`]
    const [out] = await perRead([events.map((event) => `${event}\n\n`).join('')])
    expect(out).toBe(events.map((event) => `${event}\n\n`).join(''))
  })

  it('joins an event split across reads, a character split across reads, and CRLF line ends split at the \\r', async () => {
    const bytes = encoder.encode(sse(chunk({ content: 'é' })).replaceAll('\n', '\r\n'))
    const at = bytes.indexOf(0xc3) + 1 // inside the two bytes of é
    const crlfEnd = sse(chunk({ content: 'x' }), chunk({ content: 'y' })).replaceAll('\n', '\r\n')
    const cut = crlfEnd.indexOf('\r\n\r\n') + 3 // the first event's blank line, cut between its \r and \n
    const outputs = await perRead([bytes.slice(0, at), bytes.slice(at), crlfEnd.slice(0, cut), crlfEnd.slice(cut)])
    expect(outputs.map(deltasOf)).toEqual([[], [{ content: 'é' }], [], [{ content: 'xy' }]])
  })

  it('passes an unfinished last event through when the stream ends', async () => {
    const outputs = await perRead([`data: ${chunk({ content: 'a' })}\n\ndata: [DO`])
    expect(outputs.join('')).toBe(`data: ${chunk({ content: 'a' })}\n\ndata: [DO`)
  })
})

describe('chatCompletionPiece', () => {
  it('refuses anything but one delta of one kind of text', () => {
    expect(chatCompletionPiece(chunk({ content: 'a' }))?.text).toBe('a')
    expect(chatCompletionPiece(chunk({ reasoning: 'r' }))?.text).toBe('r')
    expect(chatCompletionPiece(chunk({ content: 'a' }, { usage: { total_tokens: 1 } }))).toBeUndefined()
    expect(chatCompletionPiece(chunk({ content: 'a' }, { x_groq: { id: 'q' } }))).toBeUndefined()
    expect(chatCompletionPiece(chunk({ content: 'a', reasoning_content: 'b' }))).toBeUndefined()
    expect(chatCompletionPiece(chunk({ content: ['a'] }))).toBeUndefined()
    expect(chatCompletionPiece('{"choices":[{"index":0,"delta":{"content":"a"},"logprobs":{"content":[]}}]}')).toBeUndefined()
    expect(chatCompletionPiece('{"error":{"message":"overloaded"}}')).toBeUndefined()
    expect(chatCompletionPiece('{"choices": [')).toBeUndefined()
  })
})

describe('a coalesced stream through the real OpenAI-compatible provider', () => {
  const config: ProviderConfig = { id: 'prv_1', type: 'openai-compatible', name: 'Local', baseURL: 'http://127.0.0.1:1/v1', models: [], time: { created: 0, updated: 0 } }
  const words = Array.from({ length: 200 }, (_, index) => `w${index} `)
  const argumentPieces = ['{"todos":[', '{"content":"a",', '"status":"pending",', '"priority":"high"}', ']}']
  const body = sse(
    chunk({ role: 'assistant', content: '' }),
    ...words.slice(0, 20).map((word) => chunk({ reasoning_content: word })),
    ...words.map((word) => chunk({ content: word })),
    JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'todowrite', arguments: '' } }] }, finish_reason: null }] }),
    ...argumentPieces.map((piece) => JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }] })),
    JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
    JSON.stringify({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 230, total_tokens: 242 } }),
    '[DONE]',
  )

  /** Every part the model streams, with the whole body arriving in one network read. */
  async function parts(coalesce: boolean) {
    const fetch = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch
    const model = (await createLanguageModel(config, 'local-model', { fetch })) as unknown as {
      doStream(options: unknown): PromiseLike<{ stream: ReadableStream<LanguageModelV4StreamPart> }>
    }
    // Without coalescing: the same provider, its fetch answering with the raw body (the wrapper sees no event stream).
    const raw = coalesce ? model : ((await createLanguageModel(config, 'local-model', { fetch: rawFetch(fetch) })) as typeof model)
    const { stream } = await raw.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], includeRawChunks: false })
    const all: LanguageModelV4StreamPart[] = []
    for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) all.push(part)
    return all
  }
  /** Hides the event-stream type from the wrapper so the body reaches the SDK as the server sent it. */
  const rawFetch = (fetch: typeof globalThis.fetch) =>
    (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init)
      return new Response(response.body, { headers: { 'content-type': 'text/plain' } })
    }) as typeof globalThis.fetch

  const summary = (all: LanguageModelV4StreamPart[]) => ({
    text: all.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join(''),
    reasoning: all.flatMap((part) => (part.type === 'reasoning-delta' ? [part.delta] : [])).join(''),
    calls: all.flatMap((part) => (part.type === 'tool-call' ? [{ name: part.toolName, input: JSON.parse(part.input) as unknown }] : [])),
    kinds: [...new Set(all.map((part) => part.type))],
    finish: all.flatMap((part) => (part.type === 'finish' ? [{ reason: part.finishReason, usage: part.usage }] : [])),
  })

  it('yields the same text, reasoning, tool call, usage and finish as the raw stream, in far fewer deltas', async () => {
    const [coalesced, raw] = [await parts(true), await parts(false)]
    expect(summary(coalesced)).toEqual(summary(raw))
    expect(summary(coalesced).text).toBe(words.join(''))
    expect(summary(coalesced).calls).toEqual([{ name: 'todowrite', input: { todos: [{ content: 'a', status: 'pending', priority: 'high' }] } }])
    const count = (all: LanguageModelV4StreamPart[], type: string) => all.filter((part) => part.type === type).length
    expect(count(raw, 'text-delta')).toBe(200)
    expect(count(coalesced, 'text-delta')).toBe(1)
    expect(count(coalesced, 'reasoning-delta')).toBe(1)
  })
})
