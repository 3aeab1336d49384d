import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

test('tokens read from the prompt cache show in the step usage and are billed at the cache price', async ({ page }) => {
  await model.push(
    [streamText('From the cache.', { usage: { prompt_tokens: 10_000, completion_tokens: 500, prompt_tokens_details: { cached_tokens: 8_000 } } })],
    { model: 'mock-model' },
  )
  await model.push([streamText('Cached answer')], { model: 'mock-small' })
  const app = new Conversation(page)
  await app.start(undefined, { prices: { input: 2, output: 8, cacheRead: 0.2 } })
  await app.send('Answer from the cache')
  const reply = app.replies().first()
  await expect(reply).toContainText('From the cache.')
  // Input counts only the 2,000 tokens not read from the cache; the 8,000 read are shown on their own.
  await expect(reply).toContainText('2k in · 500 out · 8k cache read')
  await expect(reply.getByTitle(/8,000 cache read/).first()).toBeVisible()
  // 2,000 × $2 + 500 × $8 + 8,000 × $0.20 per million = $0.0096 (at the input price it would be $0.0240).
  await expect(reply).toContainText('$0.0096')
})

test('a Claude model behind an OpenAI-compatible gateway gets cache breakpoints on the system prompt and the newest message', async ({ page }) => {
  const claude = 'claude-sonnet-4-5'
  await model.push([streamText('One.'), streamText('Two.')], { model: claude })
  await model.push([streamText('Caching check')], { model: 'mock-small' })
  const app = new Conversation(page)
  await app.start()
  // Settings has no shortcut for this: the gateway's model list gains a Claude model, which becomes the default.
  await page.evaluate(async (claude) => {
    const api = window.__tabcode!.api
    const provider = (await api.listProviders()).find((entry) => entry.name === 'Mock server')!
    const models = [...provider.models, { id: claude, limit: { context: 200_000, output: 4_096 }, cost: { input: 3, output: 15 } }]
    await api.saveProvider({ id: provider.id, type: provider.type, name: provider.name, baseURL: provider.baseURL, models })
    await api.setSetting({ key: 'model.default', value: { providerID: provider.id, modelID: claude } })
  }, claude)
  await page.reload()
  await app.ready()
  await app.newSession()
  await app.send('First question')
  await expect(app.replies().first()).toContainText('One.')
  await app.send('Second question')
  await expect(app.replies().nth(1)).toContainText('Two.')

  const requests = (await model.requests()).filter((request) => request.model === claude)
  expect(requests).toHaveLength(2)
  const messages = requests[1]!.body!.messages as unknown as { role: string; content: unknown; cache_control?: unknown }[]
  const ephemeral = { type: 'ephemeral' }
  expect(messages[0]).toMatchObject({ role: 'system', cache_control: ephemeral })
  expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'Second question', cache_control: ephemeral })
  // Older messages carry none: Anthropic allows four breakpoints, and the prefix before them is cached anyway.
  expect(messages.find((message) => message.content === 'First question')).not.toHaveProperty('cache_control')
})
