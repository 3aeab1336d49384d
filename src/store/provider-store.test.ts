import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../core/settings'
import { makeTestContext } from '../testing/test-context'
import type { ProviderInput } from '../core/protocol'
import {
  DEFAULT_RETRY_LIMIT,
  getProvider,
  getSettings,
  listProviders,
  removeProvider,
  saveProvider,
  setSetting,
} from './provider-store'
import type { ModelInfo } from '../core/provider/schema'

/** Notifications are off until the user turns them on. */
const NOTIFICATIONS_OFF = DEFAULT_SETTINGS.notifications

const KEY = 'sk-test-SECRET-0123456789'

const known = (id: string) => ({ id }) as ModelInfo

function openai(overrides: Partial<ProviderInput> = {}): ProviderInput {
  return { type: 'openai', name: 'OpenAI', apiKey: KEY, models: [known('gpt-4o'), known('gpt-4o-mini')], ...overrides }
}

const ollama = (overrides: Partial<ProviderInput> = {}): ProviderInput => ({
  type: 'openai-compatible',
  name: 'Ollama',
  baseURL: 'http://localhost:11434/v1',
  models: [known('llama3.2:3b')],
  ...overrides,
})

describe('saveProvider', () => {
  it('stores a provider, fills limits and prices from the table, and never returns the key', async () => {
    const { context, db } = makeTestContext()
    const summary = await saveProvider(context, openai())
    expect(summary.id).toMatch(/^prv_/)
    expect(summary.hasKey).toBe(true)
    expect(JSON.stringify(summary)).not.toContain(KEY)
    expect('apiKey' in summary).toBe(false)
    expect(summary.models[0]).toMatchObject({
      id: 'gpt-4o',
      limit: { context: 128_000, output: 16_384 },
      cost: { input: 2.5, output: 10, cacheRead: 1.25 },
    })
    expect((await db.providers.get(summary.id))?.apiKey).toBe(KEY)
    expect(await listProviders(context)).toEqual([summary])
  })

  it('keeps an absent or blank key, replaces it with a new one, and clears it with null', async () => {
    const { context, advance } = makeTestContext()
    const first = await saveProvider(context, ollama({ apiKey: 'first' }))
    advance()
    await saveProvider(context, ollama({ id: first.id, name: 'Renamed' }))
    expect((await getProvider(context, first.id)).apiKey).toBe('first')
    await saveProvider(context, ollama({ id: first.id, apiKey: '   ' }))
    expect((await getProvider(context, first.id)).apiKey).toBe('first')
    await saveProvider(context, ollama({ id: first.id, apiKey: ' Bearer second\n' }))
    expect((await getProvider(context, first.id)).apiKey).toBe('second')
    const cleared = await saveProvider(context, ollama({ id: first.id, apiKey: null }))
    expect(cleared.hasKey).toBe(false)
    expect((await getProvider(context, first.id)).apiKey).toBeUndefined()
  })

  it('keeps the creation time and moves the update time', async () => {
    const { context, advance } = makeTestContext()
    const first = await saveProvider(context, openai())
    const later = advance(5_000)
    const second = await saveProvider(context, openai({ id: first.id, apiKey: undefined }))
    expect(second.time).toEqual({ created: first.time.created, updated: later })
  })

  it('requires a key for hosted providers and none for OpenAI-compatible ones', async () => {
    const { context } = makeTestContext()
    await expect(saveProvider(context, openai({ apiKey: undefined }))).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'apiKey' },
      message: 'OpenAI needs an API key.',
    })
    await expect(
      saveProvider(context, { type: 'anthropic', name: 'Anthropic', apiKey: null, models: [] }),
    ).rejects.toMatchObject({ name: 'InputError', message: 'Anthropic needs an API key.' })
    expect((await saveProvider(context, ollama())).hasKey).toBe(false)
  })

  it('requires limits for models the table does not know, and says which', async () => {
    const { context } = makeTestContext()
    const error = await saveProvider(context, ollama({ models: [known('my-finetune'), known('other-model')] })).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({ name: 'InputError', data: { field: 'models' } })
    expect((error as Error).message).toBe(
      '“my-finetune”, “other-model” are not in the built-in model table: enter their context and output limits (in tokens).',
    )
    const saved = await saveProvider(
      context,
      ollama({ models: [{ id: 'my-finetune', limit: { context: 8_192, output: 2_048 }, cost: { input: 0, output: 0 } }] }),
    )
    expect(saved.models[0]).toEqual({ id: 'my-finetune', limit: { context: 8_192, output: 2_048 }, cost: { input: 0, output: 0 } })
  })

  it('lets edited limits and prices win over the table', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(
      context,
      openai({
        models: [{ id: 'gpt-4o', limit: { context: 64_000, output: 4_000 }, cost: { input: 1, output: 2, cacheWrite: 3 } }],
      }),
    )
    expect(saved.models[0]).toMatchObject({
      limit: { context: 64_000, output: 4_000 },
      cost: { input: 1, output: 2, cacheRead: 1.25, cacheWrite: 3 },
    })
  })

  it('saves the context tiers the facts give a model, unless the user typed other base prices', async () => {
    const { context } = makeTestContext()
    const tier = { above: 272_000, input: 5, output: 22.5, cacheRead: 0.5 }
    const listed = await saveProvider(context, openai({ models: [known('gpt-5.4')] }))
    expect(listed.models[0]?.cost).toEqual({ input: 2.5, output: 15, cacheRead: 0.25, tiers: [tier] })
    // The form sends the prices it showed: the list prices keep the tiers, a negotiated one does not.
    const shown = await saveProvider(context, openai({ id: listed.id, models: [{ id: 'gpt-5.4', cost: { input: 2.5, output: 15 } } as ModelInfo] }))
    expect(shown.models[0]?.cost.tiers).toEqual([tier])
    const negotiated = await saveProvider(context, openai({ id: listed.id, models: [{ id: 'gpt-5.4', cost: { input: 2, output: 12 } } as ModelInfo] }))
    expect(negotiated.models[0]?.cost).toEqual({ input: 2, output: 12, cacheRead: 0.25 })
  })

  it('rejects bad input with a named InputError that names the field', async () => {
    const { context } = makeTestContext()
    const cases: [ProviderInput, string, RegExp][] = [
      [ollama({ baseURL: undefined }), 'baseURL', /needs a base URL/],
      [ollama({ baseURL: 'localhost:11434' }), 'baseURL', /http:\/\/ or https:\/\//],
      [ollama({ baseURL: 'not a url' }), 'baseURL', /is not a URL/],
      [ollama({ baseURL: 'http://user:pw@localhost:1/v1' }), 'baseURL', /API key field/],
      [ollama({ name: '  ' }), 'name', /needs a name/],
      [ollama({ models: [known('llama3'), known('llama3')] }), 'models', /listed twice/],
      [ollama({ models: [{ id: 'x', limit: { context: 10, output: 20 }, cost: { input: 0, output: 0 } }] }), 'models', /larger than its context/],
      [{ ...ollama(), type: 'bedrock' as never }, 'type', /Invalid provider/],
    ]
    for (const [input, field, message] of cases) {
      const error = await saveProvider(context, input).catch((caught: unknown) => caught)
      expect(error, field).toMatchObject({ name: 'InputError', data: { field } })
      expect((error as Error).message).toMatch(message)
    }
    expect(await listProviders(context)).toEqual([])
  })

  it('trims pasted endpoints down to the API root', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(context, ollama({ baseURL: ' http://localhost:11434/v1/chat/completions/ ' }))
    expect(saved.baseURL).toBe('http://localhost:11434/v1')
  })

  it('fails to update a provider that is gone', async () => {
    const { context } = makeTestContext()
    await expect(saveProvider(context, ollama({ id: 'prv_gone' }))).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('clears a default model that the provider no longer offers', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(context, openai())
    await setSetting(context, { key: 'model.default', value: { providerID: saved.id, modelID: 'gpt-4o-mini' } })
    await setSetting(context, { key: 'model.small', value: { providerID: saved.id, modelID: 'gpt-4o' } })
    await saveProvider(context, openai({ id: saved.id, apiKey: undefined, models: [known('gpt-4o')] }))
    expect(await getSettings(context)).toEqual({
      retryLimit: DEFAULT_RETRY_LIMIT,
      workspaceBackend: 'auto',
      compactionAuto: true,
      compactionPrune: true,
      compactionTailTurns: 2,
      notifications: NOTIFICATIONS_OFF,
      smallModel: { providerID: saved.id, modelID: 'gpt-4o' },
    })
  })
})

describe('removeProvider', () => {
  it('removes the provider and the model settings that pointed at it, and nothing else', async () => {
    const { context } = makeTestContext()
    const gone = await saveProvider(context, openai())
    const kept = await saveProvider(context, ollama())
    await setSetting(context, { key: 'model.default', value: { providerID: gone.id, modelID: 'gpt-4o' } })
    await setSetting(context, { key: 'model.small', value: { providerID: kept.id, modelID: 'llama3.2:3b' } })
    await setSetting(context, { key: 'retry.limit', value: 3 })
    await removeProvider(context, gone.id)
    expect((await listProviders(context)).map((provider) => provider.id)).toEqual([kept.id])
    expect(await getSettings(context)).toEqual({
      retryLimit: 3,
      workspaceBackend: 'auto',
      compactionAuto: true,
      compactionPrune: true,
      compactionTailTurns: 2,
      notifications: NOTIFICATIONS_OFF,
      smallModel: { providerID: kept.id, modelID: 'llama3.2:3b' },
    })
    await expect(removeProvider(context, gone.id)).rejects.toMatchObject({ name: 'NotFoundError' })
  })
})

describe('settings', () => {
  it('defaults the retry limit to 8 and stores a new one', async () => {
    const { context } = makeTestContext()
    expect(await getSettings(context)).toEqual({ retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: NOTIFICATIONS_OFF })
    expect(await setSetting(context, { key: 'retry.limit', value: 0 })).toEqual({ retryLimit: 0, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: NOTIFICATIONS_OFF })
    await setSetting(context, { key: 'compaction.auto', value: false })
    expect(await setSetting(context, { key: 'compaction.prune', value: false })).toMatchObject({ compactionAuto: false, compactionPrune: false })
    await expect(setSetting(context, { key: 'retry.limit', value: -1 })).rejects.toMatchObject({ name: 'ValidationError' })
    await expect(setSetting(context, { key: 'retry.limit', value: 2.5 })).rejects.toMatchObject({ name: 'ValidationError' })
  })

  it('stores the compaction tail settings, back to automatic with "auto", and refuses a bad one keeping what was stored', async () => {
    const { context } = makeTestContext()
    expect(await setSetting(context, { key: 'compaction.tailTurns', value: 5 })).toMatchObject({ compactionTailTurns: 5 })
    expect(await setSetting(context, { key: 'compaction.preserveRecentTokens', value: 20_000 })).toMatchObject({ compactionPreserveRecentTokens: 20_000 })
    await expect(setSetting(context, { key: 'compaction.tailTurns', value: -1 })).rejects.toMatchObject({ name: 'ValidationError' })
    await expect(setSetting(context, { key: 'compaction.preserveRecentTokens', value: 1.5 })).rejects.toMatchObject({ name: 'ValidationError' })
    expect(await getSettings(context)).toMatchObject({ compactionTailTurns: 5, compactionPreserveRecentTokens: 20_000 })
    expect(await setSetting(context, { key: 'compaction.preserveRecentTokens', value: 'auto' })).not.toHaveProperty('compactionPreserveRecentTokens')
  })

  it('accepts a default model only when its provider has it, with suggestions otherwise', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(context, openai())
    await expect(
      setSetting(context, { key: 'model.default', value: { providerID: 'prv_none', modelID: 'gpt-4o' } }),
    ).rejects.toMatchObject({ name: 'InputError', data: { field: 'model.default' } })
    const error = await setSetting(context, {
      key: 'model.default',
      value: { providerID: saved.id, modelID: 'gpt-4o-mni' },
    }).catch((caught: unknown) => caught)
    expect((error as Error).message).toBe(
      'The default model must be one of OpenAI\'s models; “gpt-4o-mni” is not. Did you mean “gpt-4o-mini” or “gpt-4o”?',
    )
    const settings = await setSetting(context, { key: 'model.default', value: { providerID: saved.id, modelID: 'gpt-4o' } })
    expect(settings.defaultModel).toEqual({ providerID: saved.id, modelID: 'gpt-4o' })
  })

  it('skips rows it cannot read instead of failing', async () => {
    const { context, db } = makeTestContext()
    await db.settings.put({ key: 'retry.limit', value: 'many' } as never)
    await db.settings.put({ key: 'future.thing', value: 1 } as never)
    expect(await getSettings(context)).toEqual({ retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: NOTIFICATIONS_OFF })
  })
})
