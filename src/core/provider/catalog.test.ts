import { describe, expect, it } from 'vitest'
import { catalogIDs, lookupModel, matchModel, smallModelFor } from './catalog'
import { ModelInfoSchema } from './schema'

describe('lookupModel', () => {
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
      'gpt-5-nano', 'claude-opus-4-1', 'claude-opus-4', 'claude-sonnet-4', 'claude-haiku-4-5', 'claude-3-7-sonnet',
      'claude-3-5-sonnet', 'claude-3-5-haiku', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite',
      'gemini-2.0-flash',
    ]) {
      expect(catalogIDs(), id).toContain(id)
    }
  })

  it('keeps every entry valid against the stored model schema', () => {
    for (const id of catalogIDs()) {
      const info = lookupModel('openai', id)!
      expect(ModelInfoSchema.safeParse(info).success, id).toBe(true)
      expect(info.limit.output, id).toBeLessThanOrEqual(info.limit.context)
    }
  })

  it.each([
    ['openai', 'gpt-4o-2024-08-06', 'gpt-4o'],
    ['openai', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['openai', 'gpt-4.1-2025-04-14', 'gpt-4.1'],
    ['openai', 'o3-2025-04-16', 'o3'],
    ['openai-compatible', 'openai/gpt-4o', 'gpt-4o'],
    ['openai-compatible', 'openai/gpt-5-mini', 'gpt-5-mini'],
    ['anthropic', 'claude-3-5-sonnet-latest', 'claude-3-5-sonnet'],
    ['anthropic', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet'],
    ['anthropic', 'claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['anthropic', 'claude-sonnet-4-0', 'claude-sonnet-4'],
    ['anthropic', 'claude-opus-4-1-20250805', 'claude-opus-4-1'],
    ['anthropic', 'claude-3-7-sonnet-latest', 'claude-3-7-sonnet'],
    ['openai-compatible', 'anthropic/claude-3.5-sonnet', 'claude-3-5-sonnet'],
    ['openai-compatible', 'anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5'],
    ['openai-compatible', 'anthropic/claude-3.7-sonnet:thinking', 'claude-3-7-sonnet'],
    ['openai-compatible', 'us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet'],
    ['google', 'models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['google', 'gemini-2.5-flash-preview-05-20', 'gemini-2.5-flash'],
    ['google', 'gemini-2.5-flash-lite-preview-06-17', 'gemini-2.5-flash-lite'],
    ['google', 'gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['google', 'gemini-flash-latest', 'gemini-2.5-flash'],
    ['openai-compatible', 'google/gemini-2.5-pro', 'gemini-2.5-pro'],
  ] as const)('%s %s is a variant of %s', (type, id, catalogID) => {
    const match = matchModel(type, id)
    expect(match).toMatchObject({ source: 'variant', catalogID, priced: true })
    // The returned info carries the id the provider uses, not the table's.
    expect(match?.info.id).toBe(id)
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
    for (const id of ['my-finetune', 'gpt-4o-realtime-preview', 'gemini-2.5-flash-image-preview', 'text-embedding-3-small', '', '  ']) {
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
    expect(smallModelFor(ids('gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'))?.id).toBe('gemini-2.5-flash-lite')
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
