import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { makeBuilders } from '../testing/fixture-builders'
import { streamModelCall } from './model-call'
import { toModelMessages } from './model-messages'
import { isReasoningModel } from './openai-reasoning'
import type { Part } from '../core/schema'

type Fetch = typeof globalThis.fetch
const prompt: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix the test.' }] }]

/** The JSON body the real SDK model sends for this prompt (the request fails after it is captured). */
async function wireBody(create: (fetch: Fetch) => LanguageModelV4, messages: ModelMessage[] = prompt): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | undefined
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    body = JSON.parse(String(init?.body)) as Record<string, unknown>
    throw new TypeError('Failed to fetch')
  }) as Fetch
  const events = streamModelCall({
    model: create(fetch),
    system: 'You are tabcode.',
    messages,
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

const responses = (modelID: string) => (fetch: Fetch) => createOpenAI({ apiKey: 'k', fetch }).responses(modelID)

describe('OpenAI reasoning models on the Responses API', () => {
  it.each(['gpt-5', 'gpt-5.1-codex', 'o4-mini', 'o3'])('%s: nothing stored, summaries streamed, reasoning returned encrypted; the cache key stays', async (modelID) => {
    const body = await wireBody(responses(modelID))
    expect(body.store).toBe(false)
    expect(body.reasoning).toMatchObject({ summary: 'auto' })
    expect(body.include).toEqual(['reasoning.encrypted_content'])
    expect(body.prompt_cache_key).toBe('ses_abc')
  })

  it.each([
    ['gpt-4.1 on Responses (no reasoning)', responses('gpt-4.1')],
    ['gpt-5-chat-latest on Responses (does not reason)', responses('gpt-5-chat-latest')],
    ['gpt-5 on Chat Completions', (fetch: Fetch) => createOpenAI({ apiKey: 'k', fetch }).chat('gpt-5')],
  ])('%s: none of them, only the cache key', async (_name, create) => {
    const body = await wireBody(create)
    expect(body.store).toBeUndefined()
    expect(body.include).toBeUndefined()
    expect(JSON.stringify(body)).not.toContain('"summary"')
    expect(body.prompt_cache_key).toBe('ses_abc')
  })

  it('Anthropic: none of them', async () => {
    const body = JSON.stringify(await wireBody((fetch) => createAnthropic({ apiKey: 'k', fetch }).languageModel('claude-sonnet-4-5')))
    expect(body).not.toContain('store')
    expect(body).not.toContain('encrypted_content')
  })

  it('the next step of a tool turn sends the stored reasoning back whole (encrypted), even one with no summary text', async () => {
    const { session, user, assistant } = makeBuilders()
    const { id: sessionID } = session()
    const prompted = user(sessionID, { model: { providerID: 'openai', modelID: 'gpt-5' } })
    const reply = assistant(sessionID, prompted.id, { modelID: 'gpt-5', finish: 'tool-calls' })
    let n = 0
    const part = (fields: Record<string, unknown>) => ({ id: `prt_${String(++n).padStart(26, '0')}`, sessionID, messageID: reply.id, ...fields }) as Part
    // As the processor stores them from the Responses stream: the reasoning item's id and its encrypted content.
    const history = [
      { info: prompted, parts: [{ ...part({ type: 'text', text: 'Fix the test.' }), messageID: prompted.id } as Part] },
      {
        info: reply,
        parts: [
          part({ type: 'step-start' }),
          part({ type: 'reasoning', text: 'Read the test first.', time: { start: 1, end: 2 }, metadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-1' } } }),
          part({
            type: 'tool',
            callID: 'call_1',
            tool: 'read',
            state: { status: 'completed', input: { filePath: '/a.test.ts' }, output: 'ok', title: 'a', metadata: {}, time: { start: 2, end: 3 } },
            metadata: { openai: { itemId: 'fc_1' } },
          }),
          part({ type: 'step-start' }),
          part({ type: 'reasoning', text: '', time: { start: 4, end: 5 }, metadata: { openai: { itemId: 'rs_2', reasoningEncryptedContent: 'enc-2' } } }),
          part({
            type: 'tool',
            callID: 'call_2',
            tool: 'read',
            state: { status: 'completed', input: { filePath: '/b.ts' }, output: 'ok', title: 'b', metadata: {}, time: { start: 5, end: 6 } },
            metadata: { openai: { itemId: 'fc_2' } },
          }),
        ],
      },
    ]
    const body = await wireBody(responses('gpt-5'), toModelMessages(history, prompted.model))
    const input = body.input as { type?: string; id?: string; encrypted_content?: string; summary?: unknown }[]
    // store: false means OpenAI keeps nothing, so no item may be referenced by id alone.
    expect(input.filter((item) => item.type === 'item_reference')).toEqual([])
    expect(input.filter((item) => item.type === 'reasoning')).toEqual([
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'enc-1', summary: [{ type: 'summary_text', text: 'Read the test first.' }] },
      { type: 'reasoning', id: 'rs_2', encrypted_content: 'enc-2', summary: [] },
    ])
    expect(input.filter((item) => item.type === 'function_call').map((item) => (item as { call_id?: string }).call_id)).toEqual(['call_1', 'call_2'])
  })
})

describe('isReasoningModel', () => {
  it('gpt-5 and later and the o-series reason; gpt-4 and gpt-5-chat do not', () => {
    expect(['gpt-5', 'gpt-5-mini', 'gpt-5.2', 'gpt-6', 'o1', 'o3-mini', 'o4-mini', 'openai/gpt-5'].filter(isReasoningModel)).toHaveLength(8)
    expect(['gpt-4.1', 'gpt-4o', 'gpt-5-chat-latest', 'omni-moderation'].filter(isReasoningModel)).toEqual([])
  })
})
