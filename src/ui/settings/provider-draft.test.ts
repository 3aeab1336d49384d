import { matchModel, useModelFacts } from '../../core/provider/catalog'
import { builtInFacts } from '../../core/provider/built-in-facts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderSummary } from '../../core/protocol'
import {
  applyPreset,
  changeType,
  checkDraft,
  connectionInput,
  draftFromSummary,
  modelDraftFor,
  newDraft,
  parseCount,
  parsePrice,
  presetOf,
  sameConnection,
  tierNote,
  type ProviderDraft,
} from './provider-draft'

const summary: ProviderSummary = {
  id: 'prv_1',
  type: 'openai-compatible',
  name: 'Ollama',
  baseURL: 'http://localhost:11434/v1',
  hasKey: true,
  models: [{ id: 'llama3.2', limit: { context: 131_072, output: 8_192 }, cost: { input: 0, output: 0 } }],
  time: { created: 1, updated: 2 },
}

// The settings view gets the facts from the worker (settings-dialog.tsx); here they are handed in.
beforeAll(async () => useModelFacts(await builtInFacts()))

describe('model rows', () => {
  it('shows the context tier a row came with and saves it, until the base price is edited', () => {
    const row = modelDraftFor('google', 'gemini-2.5-pro')
    expect(tierNote(row)).toBe('Over 200k tokens: $2.5 / $15 per M.')
    const draft: ProviderDraft = { ...newDraft('google'), hasKey: true, models: [row] }
    const saved = checkDraft(draft)
    expect(saved.ok && saved.input.models[0]?.cost.tiers).toEqual([{ above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }])
    const edited = { ...row, inputPrice: '1' }
    expect(tierNote(edited)).toBe('')
    const flat = checkDraft({ ...draft, models: [edited] })
    expect(flat.ok && flat.input.models[0]?.cost).toEqual({ input: 1, output: 10, cacheRead: 0.125 })
  })

  it('prefills hosted models from the table and open models from the open-model table', () => {
    expect(modelDraftFor('openai', 'gpt-4o-2024-08-06')).toMatchObject({
      context: '128000',
      output: '16384',
      inputPrice: '2.5',
      outputPrice: '10',
      cacheReadPrice: '1.25',
      cacheWritePrice: '',
      source: 'catalog',
    })
    expect(modelDraftFor('openai-compatible', 'qwen2.5-coder:7b')).toMatchObject({ context: '32768', source: 'open-model' })
  })

  it('prefers what the server reported over the open-model table, and leaves unknown models empty', () => {
    const fromServer = modelDraftFor('openai-compatible', 'qwen2.5-coder:7b', {
      id: 'qwen2.5-coder:7b',
      known: { id: 'qwen2.5-coder:7b', limit: { context: 16_384, output: 4_096 }, cost: { input: 0, output: 0 } },
    })
    expect(fromServer).toMatchObject({ context: '16384', output: '4096', source: 'server' })
    // The same numbers as the table came from the table (the UI joined them itself).
    const table = matchModel('openai-compatible', 'qwen2.5-coder:7b')!.info
    expect(modelDraftFor('openai-compatible', 'qwen2.5-coder:7b', { id: 'qwen2.5-coder:7b', known: table }).source).toBe('open-model')
    expect(modelDraftFor('openai-compatible', 'my-finetune')).toMatchObject({ context: '', output: '', inputPrice: '0', source: 'unknown' })
  })
})

describe('checkDraft', () => {
  const withModels = (draft: ProviderDraft, ...ids: string[]) => ({
    ...draft,
    models: ids.map((id) => modelDraftFor(draft.type, id)),
  })

  it('builds the input to save, keeping the stored key unless a new one is typed or removed', () => {
    const draft = draftFromSummary(summary)
    expect(checkDraft(draft)).toEqual({
      ok: true,
      input: {
        id: 'prv_1',
        type: 'openai-compatible',
        name: 'Ollama',
        baseURL: 'http://localhost:11434/v1',
        models: [{ id: 'llama3.2', limit: { context: 131_072, output: 8_192 }, cost: { input: 0, output: 0 } }],
      },
    })
    const typed = checkDraft({ ...draft, apiKey: '  sk-new  ' })
    expect(typed.ok && typed.input.apiKey).toBe('sk-new')
    const removed = checkDraft({ ...draft, removeKey: true })
    expect(removed.ok && removed.input.apiKey).toBeNull()
  })

  it('asks for limits of models the table does not know, before saving', () => {
    const draft = withModels({ ...newDraft('openai-compatible'), baseURL: 'http://localhost:1234/v1' }, 'llama3.2', 'my-finetune', 'other')
    expect(checkDraft(draft)).toEqual({
      ok: false,
      problems: ['“my-finetune”, “other” are not in the built-in model table: enter their context and output limits before saving.'],
    })
    draft.models[1] = { ...draft.models[1]!, context: '32k', output: '4,096' }
    draft.models[2] = { ...draft.models[2]!, context: '8192', output: '2048' }
    const check = checkDraft(draft)
    expect(check.ok && check.input.models.map((model) => model.limit)).toEqual([
      { context: 131_072, output: 8_192 },
      { context: 32_000, output: 4_096 },
      { context: 8_192, output: 2_048 },
    ])
  })

  it('names every other problem the worker would refuse', () => {
    const draft = withModels({ ...newDraft('openai'), name: ' ', baseURL: 'api.example.com' }, 'gpt-4o')
    draft.models[0] = { ...draft.models[0]!, output: '999999', inputPrice: '-1' }
    const check = checkDraft(draft)
    expect(check.ok).toBe(false)
    expect(!check.ok && check.problems).toEqual([
      'Give the provider a name.',
      'The base URL must start with http:// or https://.',
      'OpenAI needs an API key.',
      'The output limit of “gpt-4o” is larger than its context limit.',
      'The input price of “gpt-4o” must be a number of dollars, 0 or more.',
    ])
    expect(checkDraft({ ...newDraft('openai-compatible'), baseURL: '' })).toMatchObject({
      ok: false,
      problems: ['Enter the base URL of the server, for example http://localhost:11434/v1 for Ollama.'],
    })
  })
})

describe('connection values', () => {
  it('sends the typed key, null for a removed one, and nothing to use the stored one', () => {
    const draft = draftFromSummary(summary)
    expect(connectionInput(draft)).toEqual({ id: 'prv_1', type: 'openai-compatible', name: 'Ollama', baseURL: 'http://localhost:11434/v1', models: [] })
    expect(connectionInput({ ...draft, apiKey: 'k' }).apiKey).toBe('k')
    expect(connectionInput({ ...draft, removeKey: true }).apiKey).toBeNull()
  })

  it('asks the stored provider only while the endpoint and key are unchanged', () => {
    const draft = draftFromSummary(summary)
    expect(sameConnection(draft, summary)).toBe(true)
    expect(sameConnection({ ...draft, baseURL: 'http://localhost:11434/v1/' }, summary)).toBe(true)
    expect(sameConnection({ ...draft, baseURL: 'http://localhost:1234/v1' }, summary)).toBe(false)
    expect(sameConnection({ ...draft, apiKey: 'new' }, summary)).toBe(false)
    expect(sameConnection({ ...draft, removeKey: true }, summary)).toBe(false)
    expect(sameConnection(newDraft(), undefined)).toBe(false)
  })
})

describe('presets and type changes', () => {
  it('fills a preset’s URL and name, but keeps a name the user chose', () => {
    const draft = newDraft('openai-compatible')
    const ollama = applyPreset(draft, 'ollama')
    expect(ollama).toMatchObject({ name: 'Ollama', baseURL: 'http://localhost:11434/v1' })
    expect(presetOf(ollama)).toBe('ollama')
    expect(applyPreset(ollama, 'lm-studio')).toMatchObject({ name: 'LM Studio', baseURL: 'http://localhost:1234/v1' })
    expect(applyPreset({ ...ollama, name: 'Home box' }, 'groq')).toMatchObject({ name: 'Home box', baseURL: 'https://api.groq.com/openai/v1' })
    expect(presetOf({ ...ollama, baseURL: 'http://localhost:11434/v1/x' })).toBe('')
  })

  it('renames a default-named provider with its type and drops a preset URL for hosted types', () => {
    const ollama = applyPreset(newDraft('openai-compatible'), 'ollama')
    expect(changeType(ollama, 'anthropic')).toMatchObject({ type: 'anthropic', name: 'Anthropic', baseURL: '' })
    expect(changeType({ ...newDraft('openai'), name: 'Work' }, 'google')).toMatchObject({ name: 'Work' })
    expect(changeType(newDraft('openai'), 'openai-compatible').name).toBe('OpenAI-compatible')
  })
})

describe('number fields', () => {
  it('reads token counts with separators and k/m suffixes', () => {
    expect(parseCount('128000')).toBe(128_000)
    expect(parseCount('128,000')).toBe(128_000)
    expect(parseCount('128_000')).toBe(128_000)
    expect(parseCount('128k')).toBe(128_000)
    expect(parseCount('1M')).toBe(1_000_000)
    expect(parseCount('1.5k')).toBe(1_500)
    for (const bad of ['', '0', '-5', '12.5', 'lots', '1e3']) expect(parseCount(bad), bad).toBeUndefined()
  })

  it('reads prices in dollars', () => {
    expect(parsePrice('')).toBeUndefined()
    expect(parsePrice('0')).toBe(0)
    expect(parsePrice('$2.50')).toBe(2.5)
    expect(parsePrice('-1')).toBeNull()
    expect(parsePrice('cheap')).toBeNull()
  })
})
