import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { McpSettings } from './page-models/mcp-settings'
import { startMcpServer } from '../test-servers/mcp-server.mjs'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { conversation, requestsOf, textOf } from './testing/requests'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

test('a server added in Settings lists its tool; the model calls it after the user allows it and reads its result', async ({ page, mcp }) => {
  const app = new Conversation(page)
  const settings = new McpSettings(page)
  await app.start('MCP lookup')
  const row = await settings.addServer('dict', `${mcp.url}/mcp`)
  await expect(row).toContainText('Connected: 1 tool.')
  await settings.close()

  await model.push([toolCalls([{ id: 'call_lookup', name: 'dict_lookup_word', args: { word: 'zephyr' } }]), streamText('Zephyr means a gentle breeze.')], {
    model: 'mock-model',
  })
  await app.send('What does zephyr mean?')
  const first = requestsOf(await model.waitForRequests(1))[0]!
  expect(first.body?.tools?.map((tool) => tool.function.name)).toContain('dict_lookup_word')

  // Asked first: nothing reached the server yet.
  const dialog = page.getByRole('dialog').filter({ hasText: 'dict_lookup_word' })
  await expect(dialog).toBeVisible()
  expect(mcp.calls).toHaveLength(0)
  await dialog.getByRole('button', { name: 'Allow once' }).click()

  await expect(app.replies().last()).toContainText('Zephyr means a gentle breeze.')
  expect(mcp.calls).toEqual([{ tool: 'lookup_word', input: { word: 'zephyr' } }])
  const second = requestsOf(await model.waitForRequests(2))[1]!
  const result = conversation(second).find((message) => message.role === 'tool')
  expect(result && textOf(result)).toBe('zephyr: a word from the test dictionary.\n\nSource: e2e MCP server.')
})

test('an unreachable server says so, and a prompt still runs without its tools', async ({ page }) => {
  const app = new Conversation(page)
  const settings = new McpSettings(page)
  await app.start('MCP down')
  // A port nothing listens on: the server that was there is gone.
  const gone = await startMcpServer({ port: 0 })
  await gone.close()
  const row = await settings.addServer('offline', `${gone.url}/mcp`)
  await expect(row).toContainText('unreachable')
  await settings.close()

  await model.push([streamText('Answered without MCP.')], { model: 'mock-model' })
  await app.send('Hello')
  await expect(app.replies().last()).toContainText('Answered without MCP.')
  const request = requestsOf(await model.waitForRequests(1))[0]!
  const names = request.body?.tools?.map((tool) => tool.function.name) ?? []
  expect(names.some((name) => name.startsWith('offline_'))).toBe(false)
  expect(names).toContain('read')
})

test('a server that refuses this origin says it is CORS and how to allow it', async ({ page, mcp }) => {
  const app = new Conversation(page)
  await app.start()
  const row = await new McpSettings(page).addServer('closed', `${mcp.url}/closed/mcp`)
  await expect(row).toContainText('refuses requests from this page (CORS)')
  await expect(row).toContainText('Access-Control-Allow-Origin')
})
