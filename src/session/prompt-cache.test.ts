import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { streamModelCall } from './model-call'
import { withPromptCaching } from './prompt-cache'

const history: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'one' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
  { role: 'user', content: [{ type: 'text', text: 'three' }] },
]

/** The JSON body a real SDK model would send for this prompt (the request fails after it is captured). */
async function wireBody(create: (fetch: typeof globalThis.fetch) => LanguageModelV4): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | undefined
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    body = JSON.parse(String(init?.body)) as Record<string, unknown>
    throw new TypeError('Failed to fetch')
  }) as typeof globalThis.fetch
  const events = streamModelCall({
    model: create(fetch),
    system: 'You are tabcode.',
    messages: history,
    tools: { definitions: [], resolve: (call) => ({ toolName: call.toolName, input: {} }), run: async () => ({}) },
    maxOutputTokens: 100,
    abortSignal: new AbortController().signal,
    cacheKey: 'ses_abc',
  })
  for await (const _ of events) {
    // drain: the call ends with the fetch error
  }
  if (!body) throw new Error('no request was made')
  return body
}

const ephemeral = { type: 'ephemeral' }

describe('prompt caching on the wire', () => {
  it('Anthropic: ephemeral breakpoints on the system prompt and the last two messages, none before', async () => {
    const body = await wireBody((fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5'))
    expect(body.system).toEqual([{ type: 'text', text: 'You are tabcode.', cache_control: ephemeral }])
    const messages = body.messages as { content: { text: string; cache_control?: unknown }[] }[]
    expect(messages.map((message) => message.content.at(-1)!.cache_control)).toEqual([undefined, ephemeral, ephemeral])
  })

  it('an OpenAI-compatible gateway in front of Claude: cache_control on the last content parts', async () => {
    const body = await wireBody((fetch) =>
      createOpenAICompatible({ name: 'openai-compatible', baseURL: 'https://gateway.test/v1', fetch }).chatModel('anthropic/claude-sonnet-4.5'),
    )
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are tabcode.', cache_control: ephemeral },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'three', cache_control: ephemeral },
    ])
  })

  it('OpenAI: the session id as prompt_cache_key, and no breakpoints', async () => {
    const body = await wireBody((fetch) => createOpenAI({ apiKey: 'k', fetch }).chat('gpt-5'))
    expect(body.prompt_cache_key).toBe('ses_abc')
    expect(JSON.stringify(body)).not.toContain('cache_control')
  })

  it.each([
    ['a compatible server with another model', (fetch: typeof globalThis.fetch) => createOpenAICompatible({ name: 'openai-compatible', baseURL: 'https://x.test/v1', fetch }).chatModel('qwen3-coder')],
    ['Gemini', (fetch: typeof globalThis.fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch }).languageModel('gemini-2.5-flash')],
  ])('%s: sent as it is', async (_name, create) => {
    const body = JSON.stringify(await wireBody(create))
    expect(body).not.toContain('cache_control')
    expect(body).not.toContain('ses_abc')
  })
})

describe('withPromptCaching', () => {
  it('keeps what a marked part already carries (a reasoning signature) and never changes its input', () => {
    const signed: ModelMessage[] = [{ role: 'assistant', content: [{ type: 'text', text: 'x', providerOptions: { openaiCompatible: { extra: 1 } } }] }]
    const copy = structuredClone(signed)
    const { messages } = withPromptCaching({ provider: 'openai-compatible.chat', modelID: 'claude-x' }, 's', signed, undefined)
    expect(messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'x', providerOptions: { openaiCompatible: { extra: 1, cache_control: ephemeral }, anthropic: { cacheControl: ephemeral } } }],
    })
    expect(signed).toEqual(copy)
  })
})
