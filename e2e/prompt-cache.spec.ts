import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, type ChatMessage } from './testing/model-script'
import { ascending, descending } from '../src/core/id'
import type { Fixture } from '../src/store/fixture'

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

/** A session whose first turn, with the scripted model, was yesterday: a real day change, whatever the clocks say. */
function yesterdaysSession(projectID: string, providerID: string, title: string): Fixture {
  const start = Date.now() - 24 * 60 * 60 * 1000
  const sessionID = descending('session', start)
  const userID = ascending('message', start)
  const replyID = ascending('message', start + 1000)
  const model = { providerID, modelID: 'mock-model' }
  return {
    sessions: [{ id: sessionID, slug: 'yesterday', projectID, directory: '/workspace', title, version: '0.1.0', time: { created: start, updated: start + 2000 } }],
    messages: [
      { id: userID, sessionID, role: 'user', time: { created: start }, agent: 'build', model },
      {
        id: replyID,
        sessionID,
        role: 'assistant',
        time: { created: start + 1000, completed: start + 2000 },
        parentID: userID,
        ...model,
        agent: 'build',
        mode: 'build',
        path: { cwd: '/workspace', root: '/workspace' },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: 'stop',
      },
    ],
    parts: [
      { id: ascending('part', start), sessionID, messageID: userID, type: 'text', text: 'Yesterday question' },
      { id: ascending('part', start + 1000), sessionID, messageID: replyID, type: 'text', text: 'Yesterday answer' },
    ],
  }
}

const textOf = (message: ChatMessage | undefined) =>
  typeof message?.content === 'string' ? message.content : (message?.content ?? []).map((part) => part.text ?? '').join('\n')

test('turns on a later day send the system prompt and tools of the first turn byte for byte, and tell the new date after it', async ({ page }) => {
  await model.push([streamText('Today one.', { usage: { prompt_tokens: 3_000, completion_tokens: 10 } })], { model: 'mock-model' })
  await model.push([streamText('Today two.', { usage: { prompt_tokens: 3_100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 2_900 } } })], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  const providerID = await page.evaluate(async () => (await window.__tabcode!.api.listProviders()).find((entry) => entry.name === 'Mock server')!.id)
  const seeded = await app.seed((projectID) => yesterdaysSession(projectID, providerID, 'Started yesterday'))
  await app.sessions.getByRole('link', { name: /Started yesterday/ }).click()
  await expect(app.prompts().first()).toContainText('Yesterday question')

  await app.send('First question today')
  await expect(app.replies().nth(1)).toContainText('Today one.')
  await app.idle()
  await app.send('Second question today')
  await expect(app.replies().nth(2)).toContainText('Today two.')
  // The second turn's usage shows what the provider read from its cache, to compare with the first's.
  await expect(app.replies().nth(2)).toContainText('2.9k cache read')

  const requests = (await model.requests()).filter((request) => request.model === 'mock-model').map((request) => request.body!)
  expect(requests).toHaveLength(2)
  const [first, second] = requests as [(typeof requests)[0], (typeof requests)[0]]
  // The browser's own day names, as the worker writes them (its time zone, not the test runner's).
  const [yesterday, today] = await page.evaluate((start) => [new Date(start).toDateString(), new Date().toDateString()], seeded.sessions[0]!.time.created)
  const system = first.messages.filter((message) => message.role === 'system')
  expect(system).toHaveLength(1)
  expect(textOf(system[0])).toContain(`Today's date: ${yesterday}`)
  // Byte-identical: the system content and the tools of the two requests, as the server received them.
  expect(JSON.stringify(second.messages.filter((message) => message.role === 'system'))).toBe(JSON.stringify(system))
  expect(first.tools?.length).toBeGreaterThan(0)
  expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools))
  // Everything the first request sent is the start of the second; the new date came with the first prompt of today.
  expect(JSON.stringify(second.messages.slice(0, first.messages.length))).toBe(JSON.stringify(first.messages))
  expect(textOf(first.messages.at(-1))).toBe(`First question today\n<system-reminder>\nToday's date is now: ${today}\n</system-reminder>`)
  expect(textOf(second.messages.at(-1))).toBe('Second question today')
})
