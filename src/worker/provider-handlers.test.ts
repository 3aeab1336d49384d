import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../core/settings'
import { makeTestContext } from '../testing/test-context'
import type { ProviderInput } from '../core/protocol'
import { providerHandlers } from './provider-handlers'
import { fromWire, toWire } from '../core/wire'

/** Notifications are off until the user turns them on. */
const NOTIFICATIONS_OFF = DEFAULT_SETTINGS.notifications

const KEY = 'sk-handler-secret-0123456789'

function setup() {
  const { context } = makeTestContext()
  const requests: { url: string; authorization: string | null }[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const authorization = new Headers(init.headers).get('authorization')
    requests.push({ url: String(input), authorization })
    if (authorization && authorization !== `Bearer ${KEY}`) {
      return new Response(JSON.stringify({ error: { message: `Invalid key ${authorization}` } }), { status: 401 })
    }
    return new Response(JSON.stringify({ data: [{ id: 'gpt-4o' }, { id: 'my-finetune' }] }), { headers: { 'content-type': 'application/json' } })
  }) as typeof globalThis.fetch
  const handlers = providerHandlers(() => context, { fetch, origin: 'http://localhost:4173', opaqueProbe: async () => 'conclusive' })
  // Through the wire layer, as the UI sees it: named errors arrive rebuilt.
  const api = fromWire(toWire(handlers as never) as never)
  return { api, requests }
}

const input: ProviderInput = { type: 'openai', name: 'OpenAI', apiKey: KEY, models: [{ id: 'gpt-4o' } as never] }

describe('provider handlers', () => {
  it('saves, lists, tests and removes providers without ever returning the key', async () => {
    const { api } = setup()
    const saved = await api.saveProvider(input)
    const listed = await api.listProviders()
    expect(listed).toEqual([saved])
    expect(JSON.stringify(listed)).not.toContain(KEY)
    expect(await api.testConnection({ ...input, id: saved.id, apiKey: undefined }, 'gpt-4o')).toMatchObject({ status: 'ok' })
    await api.removeProvider(saved.id)
    expect(await api.listProviders()).toEqual([])
  })

  it('tests with the stored key when the form leaves it alone, and with none when it is removed', async () => {
    const { api, requests } = setup()
    const saved = await api.saveProvider({ ...input, type: 'openai-compatible', baseURL: 'https://llm.example/v1' })
    await api.testConnection({ id: saved.id, type: 'openai-compatible', name: 'x', baseURL: 'https://llm.example/v1', models: [] })
    expect(requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`)
    await api.testConnection({ id: saved.id, type: 'openai-compatible', name: 'x', baseURL: 'https://llm.example/v1', apiKey: null, models: [] })
    expect(requests.at(-1)?.authorization).toBeNull()
  })

  it('reports a wrong key without echoing it', async () => {
    const { api } = setup()
    const result = await api.testConnection({ ...input, apiKey: 'sk-wrong-key-98765' })
    expect(result).toMatchObject({ status: 'failed', cause: 'auth', statusCode: 401 })
    expect(JSON.stringify(result)).not.toContain('sk-wrong-key-98765')
  })

  it('lists a stored provider’s remote models with what the table knows', async () => {
    const { api } = setup()
    const saved = await api.saveProvider(input)
    const models = await api.listRemoteModels(saved.id)
    expect(models.map((model) => [model.id, model.known?.limit.context])).toEqual([
      ['gpt-4o', 128_000],
      ['my-finetune', undefined],
    ])
    await expect(api.listRemoteModels('prv_gone')).rejects.toMatchObject({ name: 'NotFoundError' })
  })

  it('stores and reads settings, with named errors for bad references', async () => {
    const { api } = setup()
    expect(await api.getSettings()).toEqual({ retryLimit: 8, workspaceBackend: 'auto', compactionAuto: true, compactionPrune: true, compactionTailTurns: 2, notifications: NOTIFICATIONS_OFF })
    const saved = await api.saveProvider(input)
    expect(await api.setSetting({ key: 'model.default', value: { providerID: saved.id, modelID: 'gpt-4o' } })).toEqual({
      retryLimit: 8,
      workspaceBackend: 'auto',
      compactionAuto: true,
      compactionPrune: true,
      compactionTailTurns: 2,
      notifications: NOTIFICATIONS_OFF,
      defaultModel: { providerID: saved.id, modelID: 'gpt-4o' },
    })
    await expect(api.setSetting({ key: 'model.small', value: { providerID: saved.id, modelID: 'nope' } })).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'model.small' },
    })
    await expect(api.saveProvider({ ...input, models: [{ id: 'my-finetune' } as never] })).rejects.toMatchObject({
      name: 'InputError',
      data: { field: 'models' },
    })
  })

  it('rejects a test request with an unknown provider type', async () => {
    const { api } = setup()
    await expect(api.testConnection({ ...input, type: 'bedrock' as never })).rejects.toMatchObject({ name: 'ValidationError' })
  })
})
