import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import type { ProviderInput } from '../core/protocol'
import { createLanguageModel, makeModelResolver, resolveModel, type ProviderLanguageModel } from '../provider/language-model'
import { providerSource, saveProvider, setSetting } from '../store/provider-store'
import type { ModelInfo, ProviderConfig } from '../core/provider/schema'

const KEY = 'sk-model-test-0123456789'

function config(overrides: Partial<ProviderConfig>): ProviderConfig {
  return { id: 'prv_1', type: 'openai', name: 'Test', apiKey: KEY, models: [], time: { created: 0, updated: 0 }, ...overrides }
}

interface Captured {
  url: string
  headers: Headers
  body: Record<string, unknown>
}

/** Records the request a model makes, then fails it: the request is what these tests are about. */
function capturingFetch() {
  const requests: Captured[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    requests.push({ url: String(input), headers: new Headers(init.headers), body: JSON.parse(String(init.body)) })
    return new Response(JSON.stringify({ error: { message: 'stop here' } }), { status: 400, headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  return { fetch, requests }
}

async function streamOnce(model: ProviderLanguageModel) {
  const streaming = model as unknown as { doStream: (options: unknown) => PromiseLike<unknown> }
  await Promise.resolve(streaming.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).catch(
    () => undefined,
  )
}

describe('createLanguageModel', () => {
  it('streams OpenAI through the Responses API with the Bearer key', async () => {
    const { fetch, requests } = capturingFetch()
    const model = await createLanguageModel(config({ type: 'openai' }), 'gpt-5', { fetch })
    expect(model).toMatchObject({ modelId: 'gpt-5', provider: 'openai.responses' })
    await streamOnce(model)
    expect(requests[0]?.url).toBe('https://api.openai.com/v1/responses')
    expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`)
    expect(requests[0]?.body).toMatchObject({ model: 'gpt-5', stream: true, input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] })
    expect(requests[0]?.body).not.toHaveProperty('messages')
  })

  it('sends OpenAI to a custom base URL when one is set', async () => {
    const { fetch, requests } = capturingFetch()
    await streamOnce(await createLanguageModel(config({ type: 'openai', baseURL: 'https://proxy.example/v1' }), 'gpt-4o', { fetch }))
    expect(requests[0]?.url).toBe('https://proxy.example/v1/responses')
  })

  it('calls Anthropic with the direct-browser-access header', async () => {
    const { fetch, requests } = capturingFetch()
    await streamOnce(await createLanguageModel(config({ type: 'anthropic' }), 'claude-sonnet-4-5', { fetch }))
    expect(requests[0]?.url).toBe('https://api.anthropic.com/v1/messages')
    expect(requests[0]?.headers.get('x-api-key')).toBe(KEY)
    expect(requests[0]?.headers.get('anthropic-dangerous-direct-browser-access')).toBe('true')
    expect(requests[0]?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true })
  })

  it('calls Gemini with the key in a header', async () => {
    const { fetch, requests } = capturingFetch()
    await streamOnce(await createLanguageModel(config({ type: 'google' }), 'gemini-2.5-flash', { fetch }))
    expect(requests[0]?.url).toMatch(
      /^https:\/\/generativelanguage\.googleapis\.com\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent/,
    )
    expect(requests[0]?.url).not.toContain(KEY)
    expect(requests[0]?.headers.get('x-goog-api-key')).toBe(KEY)
  })

  it('asks OpenAI-compatible servers for usage in the stream, with or without a key', async () => {
    const { fetch, requests } = capturingFetch()
    const local = config({ type: 'openai-compatible', baseURL: 'http://localhost:11434/v1', apiKey: undefined })
    await streamOnce(await createLanguageModel(local, 'llama3.2', { fetch }))
    expect(requests[0]?.url).toBe('http://localhost:11434/v1/chat/completions')
    expect(requests[0]?.headers.get('authorization')).toBeNull()
    expect(requests[0]?.body).toMatchObject({ model: 'llama3.2', stream: true, stream_options: { include_usage: true } })
    await streamOnce(await createLanguageModel({ ...local, apiKey: KEY }, 'llama3.2', { fetch }))
    expect(requests[1]?.headers.get('authorization')).toBe(`Bearer ${KEY}`)
  })

  it('fails with a named error when a hosted provider has no key', async () => {
    await expect(createLanguageModel(config({ type: 'anthropic', apiKey: undefined, name: 'Work Anthropic' }), 'claude-sonnet-4-5')).rejects.toMatchObject({
      name: 'MissingApiKeyError',
      message: 'Work Anthropic has no API key. Add one in Settings.',
    })
  })
})

const known = (id: string) => ({ id }) as ModelInfo
const openai: ProviderInput = { type: 'openai', name: 'OpenAI', apiKey: KEY, models: [known('gpt-4o'), known('gpt-4o-mini')] }
const anthropic: ProviderInput = { type: 'anthropic', name: 'Anthropic', apiKey: KEY, models: [known('claude-sonnet-4-5'), known('claude-haiku-4-5')] }

describe('resolveModel', () => {
  it('returns the configured limits and prices with the SDK model', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(context, openai)
    const resolved = await resolveModel(providerSource(context), { providerID: saved.id, modelID: 'gpt-4o-mini' })
    expect(resolved.config.id).toBe(saved.id)
    expect(resolved.info).toMatchObject({ id: 'gpt-4o-mini', limit: { context: 128_000 }, cost: { input: 0.15 } })
    expect(resolved.model).toMatchObject({ modelId: 'gpt-4o-mini' })
  })

  it('suggests close models of the same provider when a model is gone', async () => {
    const { context } = makeTestContext()
    const saved = await saveProvider(context, openai)
    await expect(resolveModel(providerSource(context), { providerID: saved.id, modelID: 'gpt-4o-mni' })).rejects.toMatchObject({
      name: 'ModelNotFoundError',
      message: 'OpenAI has no model “gpt-4o-mni” configured. Did you mean “OpenAI / gpt-4o-mini” or “OpenAI / gpt-4o”? Choose another model, or add it in Settings.',
      data: { providerID: saved.id, modelID: 'gpt-4o-mni', suggestions: [`${saved.id}/gpt-4o-mini`, `${saved.id}/gpt-4o`] },
    })
  })

  it('suggests the same model under another provider when its provider is gone', async () => {
    const { context } = makeTestContext()
    const again = await saveProvider(context, { ...openai, name: 'OpenAI (work)' })
    const error = await resolveModel(providerSource(context), { providerID: 'prv_removed', modelID: 'gpt-4o' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'ModelNotFoundError', data: { suggestions: [`${again.id}/gpt-4o`, `${again.id}/gpt-4o-mini`] } })
    expect((error as Error).message).toMatch(/^The model “gpt-4o” is not available: its provider is no longer configured\. Did you mean “OpenAI \(work\) \/ gpt-4o”/)
  })

  it('says to add a provider when none is configured', async () => {
    const { context } = makeTestContext()
    await expect(resolveModel(providerSource(context), { providerID: 'prv_x', modelID: 'gpt-4o' })).rejects.toThrow(
      'The model “gpt-4o” is not available: its provider is no longer configured. Add a provider in Settings.',
    )
  })
})

describe('makeModelResolver', () => {
  it('resolves references and reuses SDK models until the provider changes', async () => {
    const { context, advance } = makeTestContext()
    const saved = await saveProvider(context, openai)
    const resolver = makeModelResolver(providerSource(context))
    const first = await resolver.resolve({ providerID: saved.id, modelID: 'gpt-4o' })
    expect(first).toMatchObject({ providerID: saved.id, providerType: 'openai', info: { id: 'gpt-4o' } })
    expect((await resolver.resolve({ providerID: saved.id, modelID: 'gpt-4o' })).model).toBe(first.model)
    advance()
    await saveProvider(context, { ...openai, id: saved.id, apiKey: 'sk-new-key-000' })
    expect((await resolver.resolve({ providerID: saved.id, modelID: 'gpt-4o' })).model).not.toBe(first.model)
  })

  it('uses the chosen default model, else the first configured one', async () => {
    const { context, advance } = makeTestContext()
    const resolver = makeModelResolver(providerSource(context))
    expect(await resolver.defaultModel()).toBeUndefined()
    const first = await saveProvider(context, openai)
    advance()
    const second = await saveProvider(context, anthropic)
    expect(await resolver.defaultModel()).toEqual({ providerID: first.id, modelID: 'gpt-4o' })
    await setSetting(context, { key: 'model.default', value: { providerID: second.id, modelID: 'claude-sonnet-4-5' } })
    expect(await resolver.defaultModel()).toEqual({ providerID: second.id, modelID: 'claude-sonnet-4-5' })
  })

  it('picks a small model near the main one unless one is chosen', async () => {
    const { context, advance } = makeTestContext()
    const resolver = makeModelResolver(providerSource(context))
    const first = await saveProvider(context, openai)
    advance()
    const second = await saveProvider(context, anthropic)
    expect(await resolver.smallModel()).toEqual({ providerID: first.id, modelID: 'gpt-4o-mini' })
    expect(await resolver.smallModel({ providerID: second.id, modelID: 'claude-sonnet-4-5' })).toEqual({
      providerID: second.id,
      modelID: 'claude-haiku-4-5',
    })
    await setSetting(context, { key: 'model.small', value: { providerID: first.id, modelID: 'gpt-4o' } })
    expect(await resolver.smallModel({ providerID: second.id, modelID: 'claude-sonnet-4-5' })).toEqual({
      providerID: first.id,
      modelID: 'gpt-4o',
    })
  })

  it('has no small model when nothing cheap is configured', async () => {
    const { context } = makeTestContext()
    await saveProvider(context, { ...openai, models: [known('gpt-4o')] })
    expect(await makeModelResolver(providerSource(context)).smallModel()).toBeUndefined()
  })
})
