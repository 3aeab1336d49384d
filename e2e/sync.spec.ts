import AxeBuilder from '@axe-core/playwright'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { ascending, descending } from '../src/core/id'
import type { Message, Part } from '../src/core/schema'
import type { Fixture } from '../src/store/fixture'
import { connectMockModel } from './testing/connect-model'
import { expect, test } from './testing/fixtures'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { newDatabaseName, serverRevisions, serverText, SYNC_SERVER_URL } from './testing/sync-server'
import { SyncDevice } from './page-models/sync'
import { showWorkspace } from './page-models/workbench'

// Two browser contexts are two devices (each its own IndexedDB), syncing through the PouchDB Server that
// playwright.config.ts starts (test-servers/sync-server.mjs). Issue 31, docs/sync.md.

const model = new ModelScript()
const SYNC_PORT = new URL(SYNC_SERVER_URL).port

// The browser logs every non-2xx answer: a database that does not exist yet (404, what Test connection looks for) and
// a conflict the replicator resolves (409) are expected answers from the sync server, not failures.
test.use({ allowConsoleErrors: [new RegExp(`status of 40[49].*127\\.0\\.0\\.1:${SYNC_PORT}/`)] })

test.beforeEach(async () => {
  await model.reset()
})

/** A second device: a fresh browser context on the built app, its errors collected like the first one's. */
async function secondDevice(browser: Browser): Promise<{ context: BrowserContext; device: SyncDevice; problems: string[] }> {
  const context = await browser.newContext()
  const problems = watchErrors(context)
  const device = new SyncDevice(await context.newPage())
  await device.open()
  return { context, device, problems }
}

function watchErrors(context: BrowserContext): string[] {
  const problems: string[] = []
  const expected = new RegExp(`favicon|ERR_INTERNET_DISCONNECTED|status of 40[49].*127\\.0\\.0\\.1:${SYNC_PORT}/`)
  context.on('weberror', (error) => problems.push(error.error().message))
  context.on('console', (message) => {
    if (message.type() === 'error' && !expected.test(`${message.text()} ${message.location().url}`)) problems.push(message.text())
  })
  return problems
}

/** What axe finds serious or critical on the page as it is now (as e2e/accessibility.spec.ts asks of the main views). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`))
}

/** The first device with the scripted model as its provider. */
async function firstDevice(page: Page): Promise<SyncDevice> {
  const device = new SyncDevice(page)
  await device.open()
  await connectMockModel(page)
  await page.reload()
  await device.ready()
  return device
}

const HARBOUR = {
  project: 'Harbour works',
  title: 'Plans for the harbour',
  prompt: 'Write down when the tide turns',
  reply: 'Wrote the harbour notes.',
  file: 'harbour-notes.txt',
  content: 'the tide turns at noon',
}

test('a session made on device A appears on device B with its messages and file; the server holds no plaintext of any of it', async ({ page, browser }) => {
  const database = newDatabaseName('harbour')
  const a = await firstDevice(page)
  // Nothing is set up: no indicator, and nothing has contacted the server.
  await expect(a.indicator).toHaveCount(0)
  await a.createProject(HARBOUR.project)
  await a.newSession()
  await a.rename(/New session · /, HARBOUR.title)
  await model.push(
    [toolCalls([{ id: 'w', name: 'write', args: { filePath: HARBOUR.file, content: `${HARBOUR.content}\n` } }]), streamText(HARBOUR.reply)],
    { model: 'mock-model' },
  )
  await a.send(HARBOUR.prompt)
  await expect(a.replies().last()).toContainText(HARBOUR.reply)
  await a.idle()
  await a.setUpFirst(database, 'correct horse battery staple')
  // Settings → Sync while on (Pause, Sync now, Turn off sync) and the indicator are usable by everyone.
  await a.openSyncSettings()
  await expect(a.syncSection.getByRole('button', { name: 'Sync now' })).toBeVisible()
  expect(await seriousViolations(a.page), 'Settings → Sync while on').toEqual([])
  await a.closeSettings()

  const { context, device: b, problems } = await secondDevice(browser)
  await b.join(database, 'correct horse battery staple')
  await b.closeSettings()
  await expect(b.indicator).toHaveText('Synced', { timeout: 30_000 })
  await b.switchProject(HARBOUR.project)
  await b.openSession(HARBOUR.title)
  await expect(b.prompts()).toContainText([HARBOUR.prompt])
  await expect(b.replies().last()).toContainText(HARBOUR.reply)
  await expect(b.messages.getByRole('group', { name: /^Tool call: / })).toContainText(HARBOUR.file)
  const panel = await showWorkspace(b.page)
  await panel.getByRole('tab', { name: 'Files', exact: true }).click()
  await panel.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: new RegExp(HARBOUR.file.replace('.', '\\.')) }).click()
  await expect(panel.getByRole('textbox', { name: `Edit ${HARBOUR.file}` })).toHaveText(HARBOUR.content)

  // Everything the server holds, every revision of every document: ciphertext, ids and revisions only.
  const held = await serverText(database)
  expect(held.documents).toBeGreaterThan(5)
  for (const plain of Object.values(HARBOUR)) expect(held.text).not.toContain(plain)
  expect(held.text).not.toContain('correct horse')
  await context.close()
  expect(problems).toEqual([])
})

test('a wrong passphrase on device B is refused clearly and B stores and sends nothing; the right one then joins', async ({ page, browser }) => {
  const database = newDatabaseName('refused')
  const a = await firstDevice(page)
  await a.newSession()
  await a.rename(/New session · /, 'Kept behind the passphrase')
  await a.setUpFirst(database, 'the right passphrase')
  const before = await serverRevisions(database)

  const { context, device: b, problems } = await secondDevice(browser)
  await b.join(database, 'not the passphrase')
  await expect(b.syncSection.getByRole('alert')).toContainText(/passphrase/i)
  expect(await seriousViolations(b.page), 'Settings → Sync with a refused passphrase').toEqual([])
  // Still off: the form offers Turn on sync, no indicator, the server unchanged, nothing of A's here.
  await expect(b.syncSection.getByRole('button', { name: 'Turn on sync' })).toBeVisible()
  await expect(b.syncSection.getByRole('button', { name: 'Sync now' })).toHaveCount(0)
  await b.closeSettings()
  await expect(b.indicator).toHaveCount(0)
  expect(await serverRevisions(database)).toEqual(before)
  await b.page.reload()
  await b.ready()
  await expect(b.indicator).toHaveCount(0)
  await expect(b.projectPicker.getByRole('option')).toHaveCount(1)

  await b.join(database, 'the right passphrase')
  await b.closeSettings()
  await expect(b.indicator).toHaveText('Synced', { timeout: 30_000 })
  await expect(b.projectPicker.getByRole('option')).toHaveCount(2)
  await context.close()
  expect(problems).toEqual([])
})

test('both devices work offline on one session: back online, both show all four messages in the same order', async ({ page, context: contextA, browser }) => {
  // Two devices, three turns of sync each way and two failed turns: more than one short test's bound on a busy machine.
  test.setTimeout(120_000)
  const database = newDatabaseName('offline')
  const a = await firstDevice(page)
  await a.createProject('Boatyard')
  await a.newSession()
  await a.rename(/New session · /, 'Shared plans')
  await a.setUpFirst(database, 'tide tables')

  const { context: contextB, device: b, problems } = await secondDevice(browser)
  await connectMockModel(b.page)
  await b.page.reload()
  await b.ready()
  await b.join(database, 'tide tables')
  await b.closeSettings()
  await expect(b.indicator).toHaveText('Synced', { timeout: 30_000 })
  await b.switchProject('Boatyard')
  await b.openSession('Shared plans')
  await a.openSession('Shared plans')
  // With no network each turn fails at once (its reply is the error), instead of retrying for minutes.
  await a.noRetries()
  await b.noRetries()
  // Both visits complete first: a device whose service worker had not cached the model provider's chunk yet failed
  // its turn offline with "Failed to fetch dynamically imported module" and stored no reply (the flake this test had).
  await a.waitUntilAvailableOffline()
  await b.waitUntilAvailableOffline()

  await contextA.setOffline(true)
  await contextB.setOffline(true)
  await a.send('From the laptop: check the moorings')
  await a.idle()
  await b.send('From the desktop: paint the hull')
  await b.idle()
  await expect(a.indicator).toHaveText('Offline', { timeout: 30_000 })
  await expect(b.indicator).toHaveText('Offline', { timeout: 30_000 })
  await expect(a.prompts()).toContainText(['From the laptop: check the moorings'])
  await expect(b.prompts()).toContainText(['From the desktop: paint the hull'])

  await contextA.setOffline(false)
  await contextB.setOffline(false)
  const order = ['From the laptop: check the moorings', 'From the desktop: paint the hull']
  await expect(a.prompts()).toContainText(order, { timeout: 30_000 })
  await expect(b.prompts()).toContainText(order, { timeout: 30_000 })
  await expect(a.indicator).toHaveText('Synced', { timeout: 30_000 })
  await expect(b.indicator).toHaveText('Synced', { timeout: 30_000 })
  // Four messages on each (two prompts, each with its failed reply), the same on both.
  const articles = (device: SyncDevice) => device.messages.getByRole('article')
  await expect(articles(a)).toHaveCount(4, { timeout: 30_000 })
  await expect(articles(b)).toHaveCount(4, { timeout: 30_000 })
  expect(await articles(b).allInnerTexts()).toEqual(await articles(a).allInnerTexts())
  await contextB.close()
  expect(problems).toEqual([])
})

/** `sessions` sessions of `pairs` prompt-and-reply pairs each, in `projectID`. */
function archiveFixture(projectID: string, sessions: number, pairs: number): Fixture {
  const start = Date.now() - 24 * 60 * 60 * 1000
  let clock = start
  const fixture = { sessions: [] as Fixture['sessions'], messages: [] as Message[], parts: [] as Part[] }
  for (let index = 0; index < sessions; index++) {
    const sessionID = descending('session', (clock += 1000))
    fixture.sessions.push({
      id: sessionID,
      slug: `archive-${index}`,
      projectID,
      directory: '/workspace',
      title: `Archived session ${index + 1}`,
      version: '0.1.0',
      time: { created: clock, updated: clock + pairs * 2000 },
    })
    for (let pair = 0; pair < pairs; pair++) {
      const user: Message = {
        id: ascending('message', (clock += 1000)),
        sessionID,
        role: 'user',
        time: { created: clock },
        agent: 'build',
        model: { providerID: 'local', modelID: 'mock-model' },
      }
      const reply: Message = {
        id: ascending('message', (clock += 1000)),
        sessionID,
        role: 'assistant',
        time: { created: clock, completed: clock + 500 },
        parentID: user.id,
        modelID: 'mock-model',
        providerID: 'local',
        agent: 'build',
        mode: 'build',
        path: { cwd: '/workspace', root: '/workspace' },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        finish: 'stop',
      }
      fixture.messages.push(user, reply)
      const part = (message: Message, text: string): Part => ({ id: ascending('part', clock), sessionID, messageID: message.id, type: 'text', text })
      fixture.parts.push(part(user, `Question ${pair + 1} of session ${index + 1}`), part(reply, `Answer ${pair + 1} of session ${index + 1}`))
    }
  }
  return fixture
}

test('a tab closed in the middle of its first sync is reopened and finishes with nothing lost or doubled', async ({ page, browser }) => {
  // 30 sessions of 20 messages through a first sync that is cut off and resumed.
  test.setTimeout(120_000)
  const database = newDatabaseName('resumed')
  const a = await firstDevice(page)
  await a.createProject('Archive')
  const SESSIONS = 30
  const PAIRS = 10
  await a.seed((projectID) => archiveFixture(projectID, SESSIONS, PAIRS))
  await a.setUpFirst(database, 'long memory')

  const context = await browser.newContext()
  const problems = watchErrors(context)
  // The server answers the first batches, then holds every later one: the tab is closed while its first sync is
  // visibly under way, at a point the test chose rather than one it raced for.
  let answered = 0
  const held: Array<() => Promise<void>> = []
  await context.route(`${SYNC_SERVER_URL}/**/_bulk_get*`, async (route) => {
    if (++answered <= 3) return route.continue()
    await new Promise<void>((release) => held.push(async () => release()))
    await route.abort().catch(() => {})
  })
  const first = new SyncDevice(await context.newPage())
  await first.open()
  await first.join(database, 'long memory')
  await first.closeSettings()
  const progress = first.page.getByRole('progressbar', { name: 'First sync' })
  await expect(progress).toBeVisible({ timeout: 30_000 })
  await expect(first.indicator).toContainText('First sync')
  expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThan(0)
  await first.page.close()
  await context.unroute(`${SYNC_SERVER_URL}/**/_bulk_get*`)
  for (const release of held.splice(0)) await release()

  const again = new SyncDevice(await context.newPage())
  await again.open()
  await expect(again.indicator).toHaveText('Synced', { timeout: 60_000 })
  await again.switchProject('Archive')
  await expect(again.sessionLinks()).toHaveCount(SESSIONS)
  for (const index of [1, SESSIONS]) {
    await again.openSession(`Archived session ${index}`)
    await expect(again.prompts()).toHaveCount(PAIRS)
    await expect(again.replies()).toHaveCount(PAIRS)
    await expect(again.prompts().first()).toContainText(`Question 1 of session ${index}`)
  }
  await context.close()
  expect(problems).toEqual([])
})

test('on demand, a new device takes the session list first and a session’s messages when it is opened', async ({ page, browser }) => {
  const database = newDatabaseName('on-demand')
  const a = await firstDevice(page)
  await a.createProject('Library')
  await a.seed((projectID) => archiveFixture(projectID, 3, 4))
  await a.setUpFirst(database, 'quiet shelves')

  const { context, device: b, problems } = await secondDevice(browser)
  await b.join(database, 'quiet shelves', 'When a session is opened')
  await b.closeSettings()
  await expect(b.indicator).toHaveText('Synced', { timeout: 30_000 })
  await b.switchProject('Library')
  await expect(b.sessionLinks()).toHaveCount(3)
  // The server's answers wait while the session opens, so the fetch is seen under way, then they go on.
  const held: Array<() => void> = []
  await context.route(`${SYNC_SERVER_URL}/**`, async (route) => {
    await new Promise<void>((release) => held.push(release))
    await route.continue().catch(() => {})
  })
  await b.sessionLink(/^Archived session 2/).click()
  const fetching = b.page.getByRole('status').filter({ hasText: 'Fetching messages…' })
  await expect(fetching).toBeVisible()
  await expect(b.prompts()).toHaveCount(0)
  await context.unroute(`${SYNC_SERVER_URL}/**`)
  for (const release of held.splice(0)) release()
  await expect(b.prompts()).toHaveCount(4, { timeout: 30_000 })
  await expect(b.prompts().first()).toContainText('Question 1 of session 2')
  await expect(fetching).toHaveCount(0)
  // Another session's messages are still only on the server.
  await b.sessionLink(/^Archived session 3/).click()
  await expect(b.prompts()).toHaveCount(4, { timeout: 30_000 })
  await context.close()
  expect(problems).toEqual([])
})
