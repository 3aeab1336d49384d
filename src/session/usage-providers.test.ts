import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { streamModelCall } from './model-call'
import { stepUsage } from '../core/usage'

// core/usage.ts's rules on what each provider's SDK reports, end to end through the model call (which is runtime's).

/** What a real SDK model reports for one streamed answer whose SSE events are `events`. */
async function reported(create: (fetch: typeof globalThis.fetch) => LanguageModelV4, events: unknown[]) {
  const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')
  const fetch = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch
  for await (const event of streamModelCall({
    model: create(fetch),
    system: 's',
    messages: [{ role: 'user', content: 'hi' }],
    tools: { definitions: [], resolve: (call) => ({ toolName: call.toolName, input: {} }), run: async () => ({}) },
    maxOutputTokens: 100,
    abortSignal: new AbortController().signal,
  })) {
    if (event.type === 'finish-step') return stepUsage(event.usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, event.providerMetadata)
    if (event.type === 'error') throw event.error
  }
  throw new Error('no finish')
}

describe('cached tokens as each provider reports them', () => {
  it('Anthropic: cache reads and writes come out of input and are billed at their prices', async () => {
    const { tokens, cost } = await reported((fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5'), [
      {
        type: 'message_start',
        message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, cache_creation_input_tokens: 2_000, cache_read_input_tokens: 8_000, output_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 50 } },
      { type: 'message_stop' },
    ])
    expect(tokens).toMatchObject({ input: 100, output: 50, cache: { read: 8_000, write: 2_000 } })
    // 100 × $3 + 50 × $15 + 8,000 × $0.30 + 2,000 × $3.75 per million
    expect(cost).toBeCloseTo((300 + 750 + 2_400 + 7_500) / 1e6, 12)
  })

  it.each([
    ['OpenAI', (fetch: typeof globalThis.fetch) => createOpenAI({ apiKey: 'k', fetch }).chat('gpt-5')],
    ['an OpenAI-compatible server', (fetch: typeof globalThis.fetch) => createOpenAICompatible({ name: 'openai-compatible', baseURL: 'https://x.test/v1', fetch, includeUsage: true }).chatModel('m')],
  ])('%s (Chat Completions): prompt_tokens_details.cached_tokens are cache reads', async (_name, create) => {
    const chunk = (fields: Record<string, unknown>) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...fields })
    const { tokens, cost } = await reported(create, [
      chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] }),
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      chunk({ choices: [], usage: { prompt_tokens: 10_000, completion_tokens: 50, total_tokens: 10_050, prompt_tokens_details: { cached_tokens: 8_000 } } }),
    ])
    expect(tokens).toMatchObject({ input: 2_000, output: 50, cache: { read: 8_000, write: 0 } })
    expect(cost).toBeCloseTo((6_000 + 750 + 2_400) / 1e6, 12)
  })

  it('Gemini: cachedContentTokenCount is cache reads', async () => {
    const { tokens } = await reported((fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch }).languageModel('gemini-2.5-flash'), [
      {
        candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10_000, candidatesTokenCount: 50, cachedContentTokenCount: 8_000, totalTokenCount: 10_050 },
      },
    ])
    expect(tokens).toMatchObject({ input: 2_000, output: 50, cache: { read: 8_000, write: 0 } })
  })
})
