import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { McpSettings } from './page-models/mcp-settings'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { requestsOf } from './testing/requests'

const model = new ModelScript()

// The protected endpoint's first answers are 401s, which the browser reports as failed loads.
test.use({ allowConsoleErrors: [/status of 401/] })

test.beforeEach(async () => {
  await model.reset()
})

/** Adds the OAuth-protected server in Settings and waits until it says it needs a sign-in; the dialog stays open. */
async function addProtectedServer(page: Page, url: string) {
  // As in an installed app, the callback page is then loaded through the service worker (which once served the app's
  // shell for it because of the query the authorization server adds).
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null)
  const mcpSettings = new McpSettings(page)
  const row = await mcpSettings.addServer('guarded', `${url}/oauth/mcp`)
  await expect(row).toContainText('needs authorization (HTTP 401) and offers OAuth')
  return { settings: mcpSettings.dialog, row }
}

test('signing in to an MCP server with OAuth connects it, and its tool reaches the server with the token', async ({ page, mcp }) => {
  const app = new Conversation(page)
  await app.start('MCP OAuth')
  const { settings, row } = await addProtectedServer(page, mcp.url)
  const issuedBefore = mcp.oauth.issued.length

  const popup = page.waitForEvent('popup')
  await row.getByRole('button', { name: 'Sign in to MCP server guarded' }).click()
  // The authorization server approves at once; the callback page hands the code back and closes itself.
  const window = await popup
  await window.waitForEvent('close')
  await expect(row).toContainText('Connected: 1 tool.')
  await expect(row.getByRole('button', { name: 'Sign out of MCP server guarded' })).toBeVisible()
  expect(mcp.oauth.issued).toHaveLength(issuedBefore + 1)
  const token = mcp.oauth.issued.at(-1)
  await settings.getByRole('button', { name: 'Close', exact: true }).click()

  await model.push([toolCalls([{ id: 'call_guarded', name: 'guarded_lookup_word', args: { word: 'mistral' } }]), streamText('Mistral is a wind.')], {
    model: 'mock-model',
  })
  await app.send('What is a mistral?')
  const first = requestsOf(await model.waitForRequests(1))[0]!
  expect(first.body?.tools?.map((tool) => tool.function.name)).toContain('guarded_lookup_word')
  const dialog = page.getByRole('dialog').filter({ hasText: 'guarded_lookup_word' })
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(app.replies().last()).toContainText('Mistral is a wind.')
  expect(mcp.calls).toEqual([{ tool: 'lookup_word', input: { word: 'mistral' }, bearer: token }])

  // The tokens are kept: a new worker connects with them without signing in again.
  await page.reload()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(row).toContainText('Connected: 1 tool.')
  expect(mcp.oauth.issued).toHaveLength(issuedBefore + 1)

  // Sign out forgets the tokens: the server needs a sign-in again.
  await row.getByRole('button', { name: 'Sign out of MCP server guarded' }).click()
  await expect(row).toContainText('offers OAuth')
  await expect(row.getByRole('button', { name: 'Sign in to MCP server guarded' })).toBeVisible()
})

test('a refused sign-in says so and leaves the server as it was', async ({ page, mcp }) => {
  const app = new Conversation(page)
  await app.start()
  const { settings, row } = await addProtectedServer(page, mcp.url)
  mcp.oauth.deny = true
  const issuedBefore = mcp.oauth.issued.length

  const popup = page.waitForEvent('popup')
  await row.getByRole('button', { name: 'Sign in to MCP server guarded' }).click()
  await (await popup).waitForEvent('close')
  await expect(settings.getByRole('alert')).toContainText('Sign-in to guarded was refused: the authorization server denied access.')
  await expect(row).toContainText('offers OAuth')
  await expect(row.getByRole('button', { name: 'Sign in to MCP server guarded' })).toBeEnabled()
  expect(mcp.oauth.issued).toHaveLength(issuedBefore)
})

test('a sign-in given up in its window is cancelled, and Sign in works again', async ({ page, mcp }) => {
  const app = new Conversation(page)
  await app.start()
  const { settings, row } = await addProtectedServer(page, mcp.url)
  mcp.oauth.hold = true

  const popup = page.waitForEvent('popup')
  await row.getByRole('button', { name: 'Sign in to MCP server guarded' }).click()
  const window = await popup
  await window.waitForURL(/\/authorize\?/)
  await expect(row).toContainText('Waiting for the sign-in window')
  await window.close()
  await row.getByRole('button', { name: 'Cancel sign-in to MCP server guarded' }).click()
  await expect(settings.getByRole('alert')).toContainText('Sign-in to guarded was cancelled. Nothing changed.')
  await expect(row).toContainText('offers OAuth')

  mcp.oauth.hold = false
  const again = page.waitForEvent('popup')
  await row.getByRole('button', { name: 'Sign in to MCP server guarded' }).click()
  await (await again).waitForEvent('close')
  await expect(row).toContainText('Connected: 1 tool.')
})
