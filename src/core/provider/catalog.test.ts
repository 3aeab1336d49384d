import { beforeAll, describe, expect, it } from 'vitest'
import { builtInFacts } from './built-in-facts'
import { catalogIDs, lookupModel, matchModel, modelFactsInUse, smallModelFor, useModelFacts } from './catalog'
import { ModelInfoSchema } from './schema'
import snapshot from './models-snapshot.json'

beforeAll(async () => useModelFacts(await builtInFacts()))

describe('lookupModel', () => {
  it('reads the models.dev snapshot built into the app, dated', () => {
    expect(modelFactsInUse()).toMatchObject({ date: snapshot.date, source: 'built-in' })
    expect(snapshot.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('finds exact ids with limits and prices per million tokens', () => {
    expect(lookupModel('openai', 'gpt-4o')).toEqual({
      id: 'gpt-4o',
      name: 'GPT-4o',
      limit: { context: 128_000, output: 16_384 },
      cost: { input: 2.5, output: 10, cacheRead: 1.25 },
      tools: true,
    })
    expect(lookupModel('anthropic', 'claude-sonnet-4-5')).toMatchObject({
      limit: { context: 200_000, output: 64_000 },
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      reasoning: true,
    })
    expect(lookupModel('google', 'gemini-2.5-flash')?.limit).toEqual({ context: 1_048_576, output: 65_536 })
    expect(matchModel('openai', 'gpt-4o')?.source).toBe('exact')
  })

  it('covers the families the settings view offers', () => {
    for (const id of [
      'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini',
      'gpt-5-nano', 'gpt-5.5', 'claude-opus-4-1', 'claude-opus-4-0', 'claude-sonnet-4-0', 'claude-haiku-4-5',
      'claude-sonnet-4-6', 'claude-opus-4-7', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite',
      'gemini-2.0-flash', 'gemini-3-pro-preview', 'llama-3.3-70b-versatile', 'anthropic/claude-sonnet-4.5',
    ]) {
      expect(catalogIDs(), id).toContain(id)
    }
  })

  it('keeps every entry valid against the stored model schema', () => {
    const facts = modelFactsInUse()!
    const where = {
      openai: ['openai', undefined],
      anthropic: ['anthropic', undefined],
      google: ['google', undefined],
      groq: ['openai-compatible', 'https://api.groq.com/openai/v1'],
      openrouter: ['openai-compatible', 'https://openrouter.ai/api/v1'],
    } as const
    let checked = 0
    for (const [provider, list] of Object.entries(facts.providers)) {
      const [type, baseURL] = where[provider as keyof typeof where]
      for (const fact of list) {
        const info = lookupModel(type, fact.id, { baseURL })
        if (!catalogIDs().includes(fact.id)) continue
        checked++
        expect(ModelInfoSchema.safeParse(info).success, fact.id).toBe(true)
        expect(info!.limit.output, fact.id).toBeLessThanOrEqual(info!.limit.context)
      }
    }
    expect(checked).toBeGreaterThan(300)
  })

  it.each([
    ['openai', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['openai', 'gpt-4.1-2025-04-14', 'gpt-4.1'],
    ['openai', 'o3-2025-04-16', 'o3'],
    ['openai-compatible', 'openai/gpt-4o', 'gpt-4o'],
    ['openai-compatible', 'openai/gpt-5-mini', 'gpt-5-mini'],
    ['anthropic', 'claude-3-5-sonnet-latest', 'claude-3-5-sonnet-20241022'],
    ['anthropic', 'claude-3-5-sonnet', 'claude-3-5-sonnet-20241022'],
    ['anthropic', 'claude-sonnet-4', 'claude-sonnet-4-0'],
    ['anthropic', 'claude-opus-4', 'claude-opus-4-0'],
    ['anthropic', 'claude-3-7-sonnet-latest', 'claude-3-7-sonnet-20250219'],
    ['anthropic', 'claude-sonnet-4-5-latest', 'claude-sonnet-4-5'],
    ['openai-compatible', 'anthropic/claude-3.5-sonnet', 'claude-3-5-sonnet-20241022'],
    ['openai-compatible', 'anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['openai-compatible', 'anthropic/claude-3.7-sonnet:thinking', 'claude-3-7-sonnet-20250219'],
    ['openai-compatible', 'us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet-20241022'],
    ['google', 'models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['google', 'gemini-2.5-flash-preview-05-20', 'gemini-2.5-flash'],
    ['google', 'gemini-2.5-flash-lite-preview-06-17', 'gemini-2.5-flash-lite'],
    ['google', 'gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['openai-compatible', 'google/gemini-2.5-pro', 'gemini-2.5-pro'],
  ] as const)('%s %s is a variant of %s', (type, id, catalogID) => {
    const match = matchModel(type, id)
    expect(match).toMatchObject({ source: 'variant', catalogID, priced: true })
    // The returned info carries the id the provider uses, not the table's.
    expect(match?.info.id).toBe(id)
  })

  it('keeps dated ids that models.dev lists as their own models', () => {
    expect(matchModel('anthropic', 'claude-sonnet-4-20250514')).toMatchObject({ source: 'exact', catalogID: 'claude-sonnet-4-20250514' })
    expect(matchModel('openai', 'gpt-4o-2024-05-13')?.info.cost).toEqual({ input: 5, output: 15 })
    expect(matchModel('openai', 'gpt-4o-2024-08-06')?.source).toBe('exact')
  })

  it('carries the rest of what models.dev says: modalities, dates and the context tiers of a price', () => {
    const pro = matchModel('google', 'gemini-2.5-pro')!
    expect(pro.fact).toMatchObject({
      modalities: { input: ['text', 'image', 'audio', 'video', 'pdf'], output: ['text'] },
      reasoning: true,
      tools: true,
      released: '2025-06-17',
      knowledge: '2025-01',
      cost: { input: 1.25, output: 10, cacheRead: 0.125, tiers: [{ above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }] },
    })
    expect(matchModel('openai', 'gpt-5-nano')?.fact?.limit).toEqual({ context: 400_000, input: 272_000, output: 128_000 })
    expect(matchModel('anthropic', 'claude-haiku-4-5')?.fact?.modalities.input).toContain('pdf')
  })

  it("reads an OpenAI-compatible host's own list (its prices) only for that host", () => {
    expect(matchModel('openai-compatible', 'llama-3.3-70b-versatile', { baseURL: 'https://api.groq.com/openai/v1' })).toMatchObject({
      source: 'exact',
      provider: 'groq',
      priced: true,
      info: { limit: { context: 131_072, output: 32_768 }, cost: { input: 0.59, output: 0.79 } },
    })
    const routed = matchModel('openai-compatible', 'anthropic/claude-sonnet-4.5', { baseURL: 'https://openrouter.ai/api/v1' })
    expect(routed).toMatchObject({ provider: 'openrouter', info: { limit: { context: 1_000_000 } } })
    expect(routed?.fact?.cost?.tiers).toEqual([{ above: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 }])
    // Elsewhere (a local vLLM) the same ids are the model maker's list or an open model at price 0.
    expect(matchModel('openai-compatible', 'anthropic/claude-sonnet-4.5')).toMatchObject({ provider: 'anthropic', info: { limit: { context: 200_000 } } })
    expect(matchModel('openai-compatible', 'llama-3.3-70b-versatile')?.source).toBe('pattern')
  })

  it.each([
    ['llama3.2:3b', 131_072],
    ['llama3.1:8b', 131_072],
    ['meta-llama/llama-3.3-70b-instruct', 131_072],
    ['llama-3.3-70b-versatile', 131_072],
    ['llama3:8b', 8_192],
    ['qwen2.5-coder:14b', 32_768],
    ['Qwen/Qwen2.5-Coder-32B-Instruct', 32_768],
    ['qwen3-coder:30b', 262_144],
    ['mistral:7b', 32_768],
    ['mistral-nemo:12b', 131_072],
    ['deepseek-r1:8b', 131_072],
    ['deepseek-coder-v2:16b', 163_840],
    ['gemma3:4b', 131_072],
    ['gemma2:9b', 8_192],
    ['gpt-oss:20b', 131_072],
    ['openai/gpt-oss-120b', 131_072],
  ])('knows the limits of the open model %s, at price 0', (id, context) => {
    const match = matchModel('openai-compatible', id)
    expect(match?.source).toBe('pattern')
    expect(match?.priced).toBe(false)
    expect(match?.info.limit.context).toBe(context)
    expect(match?.info.cost).toEqual({ input: 0, output: 0 })
  })

  it('says nothing about models it does not know, or about other modalities', () => {
    for (const id of ['my-finetune', 'gpt-4o-realtime-preview', 'gemini-2.5-flash-image', 'text-embedding-3-small', 'gpt-image-1', 'gemini-2.5-flash-preview-tts', '', '  ']) {
      expect(lookupModel('openai-compatible', id), id).toBeUndefined()
    }
  })
})

describe('smallModelFor', () => {
  const ids = (...list: string[]) => list.map((id) => ({ id }))

  it('prefers a Gemini Flash, then a GPT nano or mini, then a Claude Haiku', () => {
    expect(smallModelFor(ids('claude-haiku-4-5', 'gpt-4.1-mini', 'gemini-2.5-pro', 'gemini-2.5-flash'))?.id).toBe(
      'gemini-2.5-flash',
    )
    expect(smallModelFor(ids('claude-sonnet-4-5', 'claude-3-5-haiku-latest', 'gpt-4o', 'gpt-4o-mini'))?.id).toBe('gpt-4o-mini')
    expect(smallModelFor(ids('claude-sonnet-4-5', 'claude-3-5-haiku-latest'))?.id).toBe('claude-3-5-haiku-latest')
  })

  it('picks the cheapest non-reasoning model within a tier', () => {
    // models.dev marks Gemini 2.5 Flash-Lite as reasoning, so 2.0 Flash wins.
    expect(smallModelFor(ids('gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'))?.id).toBe('gemini-2.0-flash')
    expect(smallModelFor(ids('gemini-2.5-flash', 'gemini-2.5-flash-lite'))?.id).toBe('gemini-2.5-flash-lite')
    expect(smallModelFor(ids('gpt-5-nano', 'gpt-4.1-mini', 'gpt-4.1-nano'))?.id).toBe('gpt-4.1-nano')
    expect(smallModelFor(ids('gpt-5-mini', 'gpt-5-nano'))?.id).toBe('gpt-5-nano')
  })

  it('uses configured prices over the table and keeps the caller’s objects', () => {
    const cheap = { id: 'gpt-4o-mini', cost: { input: 0, output: 0 } }
    const pricey = { id: 'gpt-4.1-nano', cost: { input: 5, output: 5 } }
    expect(smallModelFor([pricey, cheap])).toBe(cheap)
  })

  it('skips audio and realtime variants and returns undefined when nothing fits', () => {
    expect(smallModelFor(ids('gpt-4o-mini-tts', 'gpt-4o-mini-realtime-preview'))).toBeUndefined()
    expect(smallModelFor(ids('llama3.2:3b', 'o4-mini', 'gpt-4o'))).toBeUndefined()
    expect(smallModelFor([])).toBeUndefined()
  })

  it('reads ids behind a vendor prefix', () => {
    expect(smallModelFor(ids('openai/gpt-4o', 'google/gemini-2.0-flash-001'))?.id).toBe('google/gemini-2.0-flash-001')
  })
})
