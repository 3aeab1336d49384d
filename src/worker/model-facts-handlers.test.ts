import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { providerHandlers } from './provider-handlers'
import { fromWire, toWire } from '../core/wire'
import { factCount, MODEL_FACTS_URL } from '../core/provider/model-facts'
import { MAX_MODEL_FACTS_BYTES } from '../core/provider/model-facts-schema'
import type { SettingsApi } from '../core/protocol'

const MIRROR = 'https://mirror.example/models/api.json'

/** models.dev's shape, with gpt-4o's numbers changed so a lookup shows which facts it read. */
const UPDATED = {
  openai: {
    id: 'openai',
    api: 'https://attacker.example/v1',
    env: ['OPENAI_API_KEY'],
    models: {
      'gpt-4o': {
        id: 'gpt-4o',
        name: 'GPT-4o',
        reasoning: false,
        tool_call: true,
        modalities: { input: ['text', 'image'], output: ['text'] },
        limit: { context: 333_000, output: 22_000 },
        cost: { input: 1.5, output: 6 },
      },
    },
  },
}

function setup(answer: () => Response) {
  const { context } = makeTestContext()
  const requests: { url: string; init: RequestInit }[] = []
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    requests.push({ url: String(input), init })
    return answer()
  }) as typeof globalThis.fetch
  const handlers = providerHandlers(() => context, { fetch, origin: 'http://localhost:4173', opaqueProbe: async () => 'conclusive', today: () => '2026-12-02' })
  const api = fromWire(toWire(handlers as never) as never) as { [K in keyof SettingsApi]: (...args: Parameters<SettingsApi[K]>) => Promise<ReturnType<SettingsApi[K]>> }
  return { api, requests, context }
}

const json = (body: unknown) => () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
const gpt4o = async (api: ReturnType<typeof setup>['api']) =>
  (await api.saveProvider({ type: 'openai', name: 'OpenAI', apiKey: 'sk-test-0000000000', models: [{ id: 'gpt-4o' } as never] })).models[0]

describe('model facts', () => {
  it('start as the built-in snapshot, and nothing is fetched until the user asks', async () => {
    const { api, requests } = setup(json(UPDATED))
    const view = await api.modelFacts()
    expect(view.url).toBe(MODEL_FACTS_URL)
    expect(view.facts.source).toBe('built-in')
    expect(factCount(view.facts)).toBeGreaterThan(400)
    expect((await gpt4o(api))?.limit).toEqual({ context: 128_000, output: 16_384 })
    expect(requests).toEqual([])
  })

  it('update from the address the user gave, without credentials, and are used and kept from then on', async () => {
    const { api, requests } = setup(json(UPDATED))
    const view = await api.updateModelFacts(MIRROR)
    expect(view).toMatchObject({ url: MIRROR, facts: { date: '2026-12-02', source: MIRROR } })
    expect(factCount(view.facts)).toBe(1)
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ url: MIRROR, init: { credentials: 'omit', referrerPolicy: 'no-referrer' } })
    expect(await gpt4o(api)).toMatchObject({ limit: { context: 333_000, output: 22_000 }, cost: { input: 1.5, output: 6 } })
    expect(await api.modelFacts()).toMatchObject({ url: MIRROR, facts: { source: MIRROR } })
    expect(JSON.stringify(await api.modelFacts())).not.toContain('attacker.example')
  })

  it.each([
    ['not JSON', () => new Response('<html>gateway</html>'), 'the file is not JSON.'],
    ['a malformed model', json({ openai: { models: { 'gpt-4o': { id: 'gpt-4o', name: 'GPT-4o', limit: { context: -5, output: 1 } } } } }), 'openai › gpt-4o: limit.context'],
    ['a server error', () => new Response('no', { status: 503 }), 'mirror.example answered 503.'],
    ['an oversize file', () => new Response('x', { headers: { 'content-length': String(MAX_MODEL_FACTS_BYTES + 1) } }), 'larger than 16 MB'],
  ])('refuse %s, naming why, and keep the facts in use', async (_, answer, reason) => {
    const { api } = setup(answer)
    await expect(api.updateModelFacts(MIRROR)).rejects.toMatchObject({ name: 'ModelFactsError', message: expect.stringContaining(reason) })
    expect((await api.modelFacts()).facts.source).toBe('built-in')
    expect((await gpt4o(api))?.limit.context).toBe(128_000)
  })

  it('refuse an address that is not http(s) or carries a password, before any request', async () => {
    const { api, requests } = setup(json(UPDATED))
    await expect(api.updateModelFacts('file:///etc/passwd')).rejects.toMatchObject({ name: 'ModelFactsError' })
    await expect(api.updateModelFacts('https://user:secret@mirror.example/api.json')).rejects.toMatchObject({ name: 'ModelFactsError' })
    expect(requests).toEqual([])
  })
})
