import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { streamModelCall } from './model-call'
import { stepUsage, type Prices } from '../core/usage'

// core/usage.ts's rules on what each provider's SDK reports, end to end through the model call (which is runtime's).

/** What a real SDK model reports for one streamed answer whose SSE events are `events`, priced at `prices`. */
async function reported(
  create: (fetch: typeof globalThis.fetch) => LanguageModelV4,
  events: unknown[],
  prices: Prices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
) {
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
    if (event.type === 'finish-step') return stepUsage(event.usage, prices, event.providerMetadata)
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

// One step's input as each provider's wire format says it: `fresh` tokens read from no cache, `read` from the cache,
// `write` written to it, and 50 tokens of output.
interface Input {
  fresh: number
  read: number
  write: number
}

type Fetch = typeof globalThis.fetch

const anthropicEvents = ({ fresh, read, write }: Input) => [
  {
    type: 'message_start',
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: fresh, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: 1 } },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 50 } },
  { type: 'message_stop' },
]

/** Chat Completions: `prompt_tokens` counts every input token; OpenAI and OpenRouter name cache writes alike. */
const chatEvents = ({ fresh, read, write }: Input) => {
  const chunk = (fields: Record<string, unknown>) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...fields })
  const prompt = fresh + read + write
  return [
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] }),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    chunk({ choices: [], usage: { prompt_tokens: prompt, completion_tokens: 50, total_tokens: prompt + 50, prompt_tokens_details: { cached_tokens: read, ...(write ? { cache_write_tokens: write } : {}) } } }),
  ]
}

const geminiEvents = ({ fresh, read }: Input) => [
  {
    candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: fresh + read, candidatesTokenCount: 50, ...(read ? { cachedContentTokenCount: read } : {}), totalTokenCount: fresh + read + 50 },
  },
]

interface Row {
  name: string
  input: Input
  /** The prices the row expects, per million: input, output, cache read, cache write. */
  at: [number, number, number, number]
}

interface ProviderTable {
  provider: string
  create: (fetch: Fetch) => LanguageModelV4
  events: (input: Input) => unknown[]
  /** The model's prices as the model facts give them (models-snapshot.json). */
  prices: Prices
  rows: Row[]
}

// The rule each row follows is opencode's getUsage (docs in /work/shared/reference/opencode-behaviour.md §4.5):
// the tier is the largest context tier the SDK's whole input (cached tokens included) is strictly over.
const TABLES: ProviderTable[] = [
  {
    provider: 'Anthropic (claude-sonnet-4.5 with its >200k tier)',
    create: (fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5'),
    events: anthropicEvents,
    prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, tiers: [{ above: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 }] },
    rows: [
      { name: 'opencode: below every tier, the base prices', input: { fresh: 150_000, read: 0, write: 0 }, at: [3, 15, 0.3, 3.75] },
      { name: 'opencode: exactly at the tier size is not over it (strict >), base prices', input: { fresh: 200_000, read: 0, write: 0 }, at: [3, 15, 0.3, 3.75] },
      { name: 'opencode: one token over the size, the tier prices', input: { fresh: 200_001, read: 0, write: 0 }, at: [6, 22.5, 0.6, 7.5] },
      { name: 'opencode: cache reads and writes count toward the tier (the SDK input includes them) and take the tier cache prices', input: { fresh: 1_000, read: 150_000, write: 60_000 }, at: [6, 22.5, 0.6, 7.5] },
      { name: 'opencode: cache reads and writes below the tier at the base cache prices', input: { fresh: 1_000, read: 8_000, write: 2_000 }, at: [3, 15, 0.3, 3.75] },
    ],
  },
  {
    provider: 'OpenAI Chat Completions (gpt-5.4 with its >272k tier, which has no cache write price)',
    create: (fetch) => createOpenAI({ apiKey: 'k', fetch }).chat('gpt-5.4'),
    events: chatEvents,
    prices: { input: 2.5, output: 15, cacheRead: 0.25, tiers: [{ above: 272_000, input: 5, output: 22.5, cacheRead: 0.5 }] },
    rows: [
      { name: 'opencode: below every tier, the base prices', input: { fresh: 200_000, read: 0, write: 0 }, at: [2.5, 15, 0.25, 2.5] },
      { name: 'opencode: exactly at the tier size is not over it (strict >), base prices', input: { fresh: 272_000, read: 0, write: 0 }, at: [2.5, 15, 0.25, 2.5] },
      { name: 'opencode: one token over the size, the tier prices', input: { fresh: 272_001, read: 0, write: 0 }, at: [5, 22.5, 0.5, 5] },
      {
        name: 'opencode: cached_tokens and cache_write_tokens count toward the tier; difference: an unpriced cache write costs the input price (opencode: $0)',
        input: { fresh: 2_000, read: 260_000, write: 20_000 },
        at: [5, 22.5, 0.5, 5],
      },
    ],
  },
  {
    provider: 'Gemini (gemini-2.5-pro with its >200k tier)',
    create: (fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch }).languageModel('gemini-2.5-pro'),
    events: geminiEvents,
    prices: { input: 1.25, output: 10, cacheRead: 0.125, tiers: [{ above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }] },
    rows: [
      { name: 'opencode: below every tier, the base prices', input: { fresh: 100_000, read: 0, write: 0 }, at: [1.25, 10, 0.125, 1.25] },
      { name: 'opencode: exactly at the tier size is not over it (strict >), base prices', input: { fresh: 200_000, read: 0, write: 0 }, at: [1.25, 10, 0.125, 1.25] },
      { name: 'opencode: one token over the size, the tier prices', input: { fresh: 200_001, read: 0, write: 0 }, at: [2.5, 15, 0.25, 2.5] },
      { name: 'opencode: cachedContentTokenCount counts toward the tier; Gemini reports no cache writes', input: { fresh: 1_000, read: 199_500, write: 0 }, at: [2.5, 15, 0.25, 2.5] },
    ],
  },
  {
    provider: 'OpenRouter through the OpenAI-compatible SDK (anthropic/claude-sonnet-4.5 with its >200k tier)',
    create: (fetch) => createOpenAICompatible({ name: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', fetch, includeUsage: true }).chatModel('anthropic/claude-sonnet-4.5'),
    events: chatEvents,
    prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, tiers: [{ above: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 }] },
    rows: [
      { name: 'opencode: below every tier, the base prices', input: { fresh: 150_000, read: 0, write: 0 }, at: [3, 15, 0.3, 3.75] },
      { name: 'opencode: exactly at the tier size is not over it (strict >), base prices', input: { fresh: 200_000, read: 0, write: 0 }, at: [3, 15, 0.3, 3.75] },
      { name: 'opencode: one token over the size, the tier prices', input: { fresh: 200_001, read: 0, write: 0 }, at: [6, 22.5, 0.6, 7.5] },
      {
        name: 'difference: cache_write_tokens read from the raw usage the SDK leaves unread (opencode counts them as input), at the tier cache prices',
        input: { fresh: 1_000, read: 150_000, write: 60_000 },
        at: [6, 22.5, 0.6, 7.5],
      },
    ],
  },
]

describe.each(TABLES)('costs by context tier: $provider', ({ create, events, prices, rows }) => {
  it.each(rows)('$name', async ({ input, at: [inputPrice, outputPrice, readPrice, writePrice] }) => {
    const { tokens, cost } = await reported(create, events(input), prices)
    expect(tokens).toMatchObject({ input: input.fresh, output: 50, cache: { read: input.read, write: input.write } })
    const expected = (input.fresh * inputPrice + 50 * outputPrice + input.read * readPrice + input.write * writePrice) / 1e6
    expect(cost).toBeCloseTo(expected, 12)
  })
})
