import type { BrowserContext, ConsoleMessage, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { error, ModelScript } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

/** Every console line of every page and worker in the context, all levels, from now on. */
function collectConsole(context: BrowserContext): string[] {
  const lines: string[] = []
  const seen = new WeakSet<ConsoleMessage>()
  const record = (message: ConsoleMessage) => {
    if (seen.has(message)) return
    seen.add(message)
    lines.push(`[${message.type()}] ${message.text()}`)
  }
  const watch = (page: Page) => {
    page.on('console', record)
    page.on('worker', (worker) => worker.on('console', record))
  }
  context.on('console', record)
  context.on('page', watch)
  for (const page of context.pages()) watch(page)
  return lines
}

test('a provider error that echoes the key leaves no trace of it in any console line', async ({ page, context }) => {
  const key = 'sk-planted-7Qx2Lm9Vb4Nc8Zt1'
  // OpenAI's own 401 repeats the key it was given.
  const refusal = error(401, {
    repeat: 3,
    body: { error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
  })
  await model.push([refusal], { model: 'mock-model' })
  await model.push([refusal], { model: 'mock-small' })
  const lines = collectConsole(context)

  const app = new Conversation(page)
  await app.start(undefined, { key })
  await app.send('hello')

  // The main request's refusal is shown, without the key.
  const alert = page.getByRole('alert').filter({ hasText: 'Incorrect API key provided' })
  await expect(alert).toBeVisible()
  await expect(alert).not.toContainText(key)
  // Title generation failed too, in the background, and said so in the console.
  await expect.poll(async () => (await model.requests()).filter((request) => request.model === 'mock-small').length).toBeGreaterThan(0)
  await expect.poll(() => lines.filter((line) => line.includes('Incorrect API key provided')).length).toBeGreaterThan(0)

  const leaks = lines.filter((line) => line.includes(key) || line.includes(key.slice(-12)) || /authorization|bearer|x-api-key/i.test(line))
  expect(leaks).toEqual([])
})
