import { expect, test } from './fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText } from './support/model-script'

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
