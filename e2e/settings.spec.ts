import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, MOCK_MODEL_SERVER_URL, streamText } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

test('adds an OpenAI-compatible provider in Settings, tests it, and chats with its model', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('button', { name: 'Add provider' }).click()
  await settings.getByRole('combobox', { name: 'Provider type' }).selectOption({ label: 'OpenAI-compatible' })
  await settings.getByRole('textbox', { name: 'Name' }).fill('Local mock')
  await settings.getByRole('textbox', { name: /^Base URL/ }).fill(`${MOCK_MODEL_SERVER_URL}/v1`)
  await settings.getByLabel('API key').fill('sk-settings-test-7777')

  await settings.getByRole('button', { name: 'Test connection' }).click()
  await expect(settings.getByRole('status')).toContainText(/Connected in \d+ ms. Local mock lists 2 models/)
  await settings.getByRole('button', { name: 'Load models' }).click()
  await settings.getByRole('checkbox', { name: /^mock-model/ }).check()
  // The server's own API (Ollama's /api/show) said the context: filled in, to be checked, and nothing is red.
  const context = settings.getByRole('textbox', { name: 'Context limit for mock-model' })
  await expect(context).toHaveValue('65536')
  await expect(settings.getByText('Limits from the server; check them.')).toBeVisible()
  await expect(settings.locator('[aria-invalid="true"]')).toHaveCount(0)
  await context.fill('32000')
  await settings.getByRole('textbox', { name: 'Output limit for mock-model' }).fill('4000')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(settings).toContainText('Saved Local mock.')
  await settings.getByRole('combobox', { name: 'Default model' }).selectOption({ label: 'Local mock / mock-model' })
  await settings.getByRole('button', { name: 'Close' }).click()

  // The key never comes back to the page: only whether one is stored.
  const summaries = await page.evaluate(() => window.__tabcode!.api.listProviders())
  expect(JSON.stringify(summaries)).not.toContain('sk-settings-test-7777')
  expect(summaries[0]).toMatchObject({ name: 'Local mock', hasKey: true })

  // No small model is configured, so the title is asked of the same model: it gets a copy too.
  await model.push([streamText('Hello from the mock.', { repeat: 2 })], { model: 'mock-model' })
  await app.newSession()
  await app.send('hi')
  await expect(app.replies().first()).toContainText('Hello from the mock.')
})

test('test connection names the real cause: a refused key, an unreachable host, an unknown model', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  const result = (input: object, modelID?: string) =>
    page.evaluate(([input, modelID]) => window.__tabcode!.api.testConnection(input as never, modelID as string | undefined), [input, modelID] as const)
  const base = { type: 'openai-compatible', name: 'Mock', baseURL: `${MOCK_MODEL_SERVER_URL}/v1`, apiKey: 'sk-wrong-key-0000', models: [] }

  await model.failModels({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-wrong-key-0000' } } })
  const refused = await result(base)
  expect(refused).toMatchObject({ status: 'failed', cause: 'auth' })
  expect(JSON.stringify(refused)).not.toContain('sk-wrong-key-0000')

  await model.failModels(null)
  expect(await result(base, 'gpt-nonexistent')).toMatchObject({ status: 'failed', cause: 'unknown-model' })
  expect(await result(base, 'mock-model')).toMatchObject({ status: 'ok' })

  // Nothing listens on port 9 here.
  expect(await result({ ...base, baseURL: 'http://127.0.0.1:9/v1' })).toMatchObject({ status: 'failed', cause: 'unreachable' })
  // A server that answers without CORS headers: the browser refuses, and the result says it was CORS.
  expect(await result({ ...base, baseURL: `${MOCK_MODEL_SERVER_URL}/no-cors/v1` })).toMatchObject({ status: 'failed', cause: 'cors' })
})

test('a first visit says a model is needed before any prompt, and the button opens Settings', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  const setup = app.main.getByRole('region', { name: 'First, a model' })
  await expect(setup).toContainText('Ollama')
  await setup.getByRole('button', { name: 'Set up a model' }).click()
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
})

test('with a model configured, the empty view goes straight to sessions', async ({ page }) => {
  const app = new Conversation(page)
  await app.start()
  await app.sessionLinks().first().waitFor()
  await page.goto('/')
  await app.ready()
  await expect(app.main.getByRole('heading', { name: 'No session open' })).toBeVisible()
  await expect(app.main.getByRole('region', { name: 'First, a model' })).toHaveCount(0)
})

test('what a compaction keeps verbatim is set in Settings → Context, refused when it is no number, and kept across a reload', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  const turns = settings.getByRole('textbox', { name: 'Recent turns kept verbatim' })
  const tokens = settings.getByRole('textbox', { name: 'Token budget for kept turns' })
  // opencode's defaults: two turns, and an automatic budget.
  await expect(turns).toHaveValue('2')
  await expect(tokens).toHaveValue('')

  await turns.fill('two')
  await turns.press('Tab')
  await expect(settings.getByRole('alert')).toHaveText('Recent turns kept must be a whole number from 0 to 1,000.')
  await expect(turns).toHaveValue('two')
  await turns.fill('1')
  await turns.press('Tab')
  await expect(settings.getByRole('status')).toHaveText('A compaction now keeps the last 1 turn verbatim.')
  await tokens.fill('12,000')
  await tokens.press('Tab')
  await expect(settings.getByRole('status')).toHaveText('Token budget for kept turns: 12,000.')

  await page.reload()
  await app.ready()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(turns).toHaveValue('1')
  await expect(tokens).toHaveValue('12000')
})
