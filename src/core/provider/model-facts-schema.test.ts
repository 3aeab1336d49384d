import { describe, expect, it } from 'vitest'
import { ModelFactsError } from './errors'
import { factCount } from './model-facts'
import { factsFromApi, factsFromText, MAX_MODEL_FACTS_BYTES, ModelFactsSchema } from './model-facts-schema'
import snapshot from './models-snapshot.json'

const meta = { date: '2026-12-02', source: 'https://models.dev/api.json' }

/** A file shaped as models.dev publishes it, with the fields tabcode does not read. */
function apiFile() {
  return {
    openai: {
      id: 'openai',
      name: 'OpenAI',
      env: ['OPENAI_API_KEY'],
      npm: '@ai-sdk/openai',
      api: 'https://evil.example/v1',
      doc: 'https://platform.openai.com/docs/models',
      models: {
        'gpt-4o': {
          id: 'gpt-4o',
          name: 'GPT-4o',
          family: 'gpt',
          attachment: true,
          reasoning: false,
          tool_call: true,
          temperature: true,
          knowledge: '2023-09',
          release_date: '2024-05-13',
          last_updated: '2024-08-06',
          modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
          open_weights: false,
          cost: { input: 2.5, output: 10, cache_read: 1.25 },
          limit: { context: 128_000, output: 16_384 },
          provider: { npm: '@evil/sdk', api: 'https://evil.example/v1' },
          benchmarks: [{ name: 'x', score: 1 }],
        },
      },
    },
    google: {
      id: 'google',
      name: 'Google',
      models: {
        'gemini-2.5-pro': {
          id: 'gemini-2.5-pro',
          name: 'Gemini 2.5 Pro',
          reasoning: true,
          tool_call: true,
          release_date: '2025-06-17',
          modalities: { input: ['text', 'image', 'audio', 'video', 'pdf'], output: ['text'] },
          cost: { input: 1.25, output: 10, context_over_200k: { input: 2.5, output: 15 } },
          limit: { context: 1_048_576, output: 65_536 },
        },
      },
    },
    'some-other-provider': { models: { broken: 'not a model' } },
  }
}

describe('factsFromApi', () => {
  it('reads the facts of the providers tabcode uses from a models.dev file', () => {
    const facts = factsFromApi(apiFile(), meta)
    expect(facts).toMatchObject({ type: 'model-facts', date: '2026-12-02', source: meta.source })
    expect(factCount(facts)).toBe(2)
    expect(facts.providers.anthropic).toEqual([])
    expect(facts.providers.openai[0]).toEqual({
      id: 'gpt-4o',
      name: 'GPT-4o',
      limit: { context: 128_000, output: 16_384 },
      cost: { input: 2.5, output: 10, cacheRead: 1.25 },
      modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
      reasoning: false,
      tools: true,
      released: '2024-05-13',
      knowledge: '2023-09',
    })
    // The older spelling of a context tier becomes a tier above 200k.
    expect(facts.providers.google[0]?.cost?.tiers).toEqual([{ above: 200_000, input: 2.5, output: 15 }])
  })

  it.each([
    {
      rule: 'opencode: only the over-200k table, a tier at 200k',
      cost: { context_over_200k: { input: 2.5, output: 15 } },
      above: [200_000],
    },
    {
      rule: 'opencode: tiers all above 200k and the over-200k table, which opencode uses between 200k and the lowest tier',
      cost: { tiers: [{ tier: { type: 'context', size: 272_000 }, input: 5, output: 22.5 }], context_over_200k: { input: 2.5, output: 15 } },
      above: [200_000, 272_000],
    },
    {
      rule: 'opencode: a tier at or below 200k always wins over 200k, so the over-200k table is never used',
      cost: { tiers: [{ tier: { type: 'context', size: 128_000 }, input: 5, output: 22.5 }], context_over_200k: { input: 2.5, output: 15 } },
      above: [128_000],
    },
    {
      rule: 'opencode: tiers of another type than context price nothing here',
      cost: { tiers: [{ tier: { type: 'batch', size: 0 }, input: 0.5, output: 1 }, { tier: { type: 'context', size: 200_000 }, input: 5, output: 22.5 }] },
      above: [200_000],
    },
  ])('context tiers: $rule', ({ cost, above }) => {
    const file = apiFile()
    file.google.models['gemini-2.5-pro'].cost = { input: 1.25, output: 10, ...cost } as never
    const tiers = factsFromApi(file, meta).providers.google[0]?.cost?.tiers ?? []
    expect(tiers.map((tier) => tier.above)).toEqual(above)
  })

  it("keeps nothing but facts: no provider's address, package or environment variable survives", () => {
    const text = JSON.stringify(factsFromApi(apiFile(), meta))
    for (const word of ['evil.example', '@ai-sdk', 'OPENAI_API_KEY', 'benchmarks', 'some-other-provider', 'npm']) expect(text).not.toContain(word)
  })

  it('rejects a malformed model, naming it, rather than keeping half a file', () => {
    const file = apiFile()
    ;(file.openai.models['gpt-4o'].limit as { context: unknown }).context = 'lots'
    expect(() => factsFromApi(file, meta)).toThrow(ModelFactsError)
    expect(() => factsFromApi(file, meta)).toThrow(/openai › gpt-4o: limit\.context/)
    const negative = apiFile()
    negative.openai.models['gpt-4o'].cost.input = -1
    expect(() => factsFromApi(negative, meta)).toThrow(/cost\.input/)
  })

  it('rejects a file of none of its providers, or of no providers at all', () => {
    expect(() => factsFromApi({ mistral: { models: {} } }, meta)).toThrow(/none of the providers/)
    expect(() => factsFromApi([], meta)).toThrow(/not an object/)
    expect(() => factsFromApi({ openai: { models: [] } }, meta)).toThrow(/openai: models/)
  })

  it('reads the snapshot built into the app, and stores what it reads', () => {
    const facts = factsFromApi(snapshot.providers, { date: snapshot.date, source: 'built-in' })
    expect(factCount(facts)).toBeGreaterThan(400)
    expect(ModelFactsSchema.safeParse(facts).success).toBe(true)
  })
})

describe('factsFromText', () => {
  it('reads JSON text', () => {
    expect(factCount(factsFromText(JSON.stringify(apiFile()), meta))).toBe(2)
  })

  it('rejects text that is not JSON, and a file over the size cap before parsing it', () => {
    expect(() => factsFromText('<html>Not found</html>', meta)).toThrow('The model facts were not updated: the file is not JSON.')
    expect(() => factsFromText(' '.repeat(MAX_MODEL_FACTS_BYTES + 1), meta)).toThrow(/larger than 16 MB/)
  })
})

describe('ModelFactsSchema', () => {
  it('refuses a stored row that is not facts', () => {
    expect(ModelFactsSchema.safeParse({ type: 'model-facts', date: 'today', source: 'x', providers: {} }).success).toBe(false)
  })
})
