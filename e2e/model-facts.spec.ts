import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'

// A mirror of models.dev's api.json, served as models.dev serves it (CORS open to every page). gpt-4o's numbers
// differ from the snapshot's, so the form shows which facts it read.
const MIRRORED = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    api: 'https://attacker.example/v1',
    env: ['OPENAI_API_KEY'],
    models: {
      'gpt-4o': {
        id: 'gpt-4o',
        name: 'GPT-4o',
        reasoning: false,
        tool_call: true,
        modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
        limit: { context: 333_000, output: 22_000 },
        cost: { input: 1.75, output: 7, cache_read: 0.5 },
      },
      'gpt-4.1': {
        id: 'gpt-4.1',
        name: 'GPT-4.1',
        tool_call: true,
        limit: { context: 1_047_576, output: 32_768 },
        cost: { input: 2, output: 8 },
      },
    },
  },
}

let server: Server
let origin: string
const requested: string[] = []

test.beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? '')
    const headers = { 'access-control-allow-origin': '*', 'content-type': 'application/json' }
    if (request.url === '/api.json') response.writeHead(200, headers).end(JSON.stringify(MIRRORED))
    else if (request.url === '/broken.json') response.writeHead(200, headers).end('{"openai": {"models": {"gpt-4o": {"id": "gpt-4o", "limit": "big"}}}}')
    else response.writeHead(404, headers).end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

test('Update model facts fetches a mirror only when pressed; the form fills models in from it, and a malformed file changes nothing', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  const facts = settings.getByRole('region', { name: 'Model facts' })
  await expect(facts).toContainText(/Model facts from \d{4}-\d{2}-\d{2} \(built into the app\): \d+ models\./)
  expect(requested).toEqual([])

  // The snapshot's gpt-4o, before any update.
  const addGpt4o = async () => {
    await settings.getByRole('button', { name: 'Add provider' }).click()
    await settings.getByRole('textbox', { name: 'Model ID' }).fill('gpt-4o')
    await settings.getByRole('button', { name: 'Add model' }).click()
    return settings.getByRole('group', { name: 'gpt-4o' })
  }
  const before = await addGpt4o()
  await expect(before.getByRole('textbox', { name: 'Context limit for gpt-4o' })).toHaveValue('128000')
  await expect(before.getByRole('textbox', { name: /^Input price for gpt-4o/ })).toHaveValue('2.5')
  await settings.getByRole('button', { name: 'Cancel' }).click()

  // A malformed file: refused with the reason, the facts in use unchanged.
  const address = facts.getByRole('textbox', { name: 'Model facts address' })
  await expect(address).toHaveValue('https://models.dev/api.json')
  await address.fill(`${origin}/broken.json`)
  await facts.getByRole('button', { name: 'Update model facts' }).click()
  await expect(facts.getByRole('alert')).toContainText('The model facts were not updated: openai › gpt-4o:')
  await expect(facts).toContainText('(built into the app)')

  await address.fill(`${origin}/api.json`)
  await facts.getByRole('button', { name: 'Update model facts' }).click()
  await expect(facts.getByRole('status')).toHaveText('Updated: 2 models.')
  await expect(facts).toContainText(`(fetched from ${origin}/api.json): 2 models.`)
  await expect(facts.getByRole('alert')).toHaveCount(0)
  expect(requested).toEqual(['/broken.json', '/api.json'])

  const after = await addGpt4o()
  await expect(after.getByRole('textbox', { name: 'Context limit for gpt-4o' })).toHaveValue('333000')
  await expect(after.getByRole('textbox', { name: 'Output limit for gpt-4o' })).toHaveValue('22000')
  await expect(after.getByRole('textbox', { name: /^Input price for gpt-4o/ })).toHaveValue('1.75')
  await settings.getByRole('button', { name: 'Cancel' }).click()

  // Kept: a reload opens Settings on the fetched facts and the mirror's address; nothing is fetched again.
  await page.reload()
  await app.open()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(facts).toContainText(`(fetched from ${origin}/api.json): 2 models.`)
  await expect(facts.getByRole('textbox', { name: 'Model facts address' })).toHaveValue(`${origin}/api.json`)
  expect(requested).toEqual(['/broken.json', '/api.json'])
})
