import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { Sharing } from './page-models/share'
import { connectMockModel } from './testing/connect-model'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './testing/fixtures-data'
import { ModelScript, streamText } from './testing/model-script'
import { makeBuilders } from '../src/testing/fixture-builders'
import type { Fixture } from '../src/store/fixture'

// Issue 6: share links, export and import, through the real worker. Links are opened the way a person does,
// in the address bar; broken links are built here byte for byte the way src/share/link.ts lays them out:
// `#/share/v1.` + base64url(u32 big-endian length of the compressed bytes · deflate-raw(JSON)).

test.describe.configure({ timeout: 60_000 })

const OPENED = 'Opened a shared session (read-only)'
const OPENCODE_FIXTURES = join(process.cwd(), 'e2e/testing/opencode')

function framed(compressed: Buffer): Buffer {
  const out = Buffer.alloc(4 + compressed.length)
  out.writeUInt32BE(compressed.length, 0)
  compressed.copy(out, 4)
  return out
}

function shareLink(origin: string, token: string): string {
  return `${origin}/#/share/${token}`
}

/** A short conversation of our own, in the project the sidebar lists. */
function conversationFixture(projectID: string, title: string, turns: [string, string][]): Fixture {
  const build = makeBuilders(Date.now() - 60_000)
  const session = build.session({ projectID, title })
  const messages = []
  const parts = []
  for (const [prompt, reply] of turns) {
    const user = build.user(session.id)
    const answer = build.assistant(session.id, user.id)
    messages.push(user, answer)
    parts.push(build.text(user, prompt), build.text(answer, reply))
  }
  return { sessions: [session], messages, parts }
}

/** Fails the test on any page error in a context the `failOnPageErrors` fixture does not watch (a fresh profile). */
function watchErrors(context: BrowserContext): string[] {
  const problems: string[] = []
  context.on('weberror', (error) => problems.push(error.error().message))
  context.on('console', (message) => {
    if (message.type() === 'error' && !/favicon|ERR_INTERNET_DISCONNECTED/.test(message.text())) problems.push(message.text())
  })
  return problems
}

async function seededSession(page: Page, build: (projectID: string) => Fixture, title: string) {
  const app = new Sharing(page)
  await app.open()
  await app.seed(build)
  await app.openSession(title)
  return app
}

test('a share link opened in a fresh browser profile shows the same session, read-only', async ({ page, context, browser, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const app = await seededSession(page, (projectID) => everyPartTypeFixture({ projectID }), T.sessionTitle)
  await app.openShareDialog()
  const dialog = app.shareDialog
  await expect(dialog.getByRole('meter', { name: 'Link size' })).toBeVisible()
  await expect(dialog.getByText('No secrets found')).toBeVisible()
  await page.screenshot({ path: 'test-results/screenshots/share-dialog.png' })
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const field = dialog.getByRole('textbox', { name: 'Share link' })
  await expect(field).toHaveValue(/#\/share\/v1\./)
  const url = await field.inputValue()
  expect(url.startsWith(`${baseURL}/#/share/v1.`)).toBe(true)
  await dialog.getByRole('button', { name: 'Copy link' }).click()
  await expect(dialog.getByRole('status')).toHaveText('Link copied.')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url)
  await dialog.getByRole('button', { name: 'Close' }).click()

  const fresh = await browser.newContext()
  const problems = watchErrors(fresh)
  const other = new Sharing(await fresh.newPage())
  await other.openLink(url)
  await expect(other.status(OPENED)).toBeVisible()
  await expect(other.heading(T.sessionTitle)).toBeVisible()
  // The fragment now names the imported session, so a reload opens it instead of importing again.
  const importedID = await other.openSessionID()
  const log = other.messages
  await expect(log).toContainText(T.userText)
  await expect(log).toContainText(T.assistantText)
  await expect(log.getByRole('heading', { name: T.assistantHeading })).toBeVisible()
  const tools = log.getByRole('group', { name: /^Tool call: / })
  await expect(tools).toHaveCount(5)
  await expect(tools.filter({ hasText: T.toolCompletedTitle })).toContainText('completed')
  await expect(log.getByRole('group', { name: 'Changed files' })).toContainText(T.patchFile)
  await expect(log).toContainText(T.summaryText)
  // Read-only: the banner offers the fork, the prompt box is off, and says why.
  await expect(other.importedBanner).toContainText('read-only')
  await expect(other.importedBanner.getByRole('button', { name: 'Continue in a fork' })).toBeVisible()
  await expect(other.prompt).toBeDisabled()
  await expect(other.main).toContainText('Continue in a fork to reply')
  await other.page.screenshot({ path: 'test-results/screenshots/shared-session.png' })

  await other.page.reload()
  await other.ready()
  await expect(other.heading(T.sessionTitle)).toBeVisible()
  expect(await other.openSessionID()).toBe(importedID)
  expect(await other.sessionCount()).toBe(2) // the session and its subagent child, once
  await fresh.close()
  expect(problems).toEqual([])
})

test('a passphrase link asks for it: the wrong one is refused, the right one opens the session', async ({ page, browser }) => {
  const app = await seededSession(page, (projectID) => conversationFixture(projectID, 'Secret plans', [['Where is the map?', 'Under the third stone.']]), 'Secret plans')
  const url = await app.createLink({ passphrase: 'tiger-lily-42' })
  expect(url).toContain('#/share/v1e.')

  const fresh = await browser.newContext()
  const problems = watchErrors(fresh)
  const other = new Sharing(await fresh.newPage())
  await other.openLink(url)
  await expect(other.openDialog).toBeVisible()
  const before = await other.sessionCount()
  await other.openDialog.getByRole('textbox', { name: 'Passphrase' }).fill('tiger-lily-41')
  await other.openDialog.getByRole('button', { name: 'Open' }).click()
  await expect(other.openDialog.getByRole('alert')).toContainText('Wrong passphrase')
  expect(await other.sessionCount()).toBe(before)
  await other.openDialog.getByRole('textbox', { name: 'Passphrase' }).fill('tiger-lily-42')
  await other.openDialog.getByRole('button', { name: 'Open' }).click()
  await expect(other.openDialog).toBeHidden()
  await expect(other.status(OPENED)).toBeVisible()
  await expect(other.messages).toContainText('Under the third stone.')
  expect(await other.sessionCount()).toBe(before + 1)
  await fresh.close()
  expect(problems).toEqual([])
})

test('corrupt, truncated, bomb, oversized and newer-version links each say what is wrong and write nothing', async ({ page, baseURL }) => {
  const app = await seededSession(page, (projectID) => conversationFixture(projectID, 'A real one', [['Hello', 'Hi there.']]), 'A real one')
  const real = await app.createLink()
  const origin = baseURL!
  const payload = real.slice(real.indexOf('v1.') + 3)
  // 200 MB of zeros deflate to ~200 KB: a link that would inflate a thousandfold.
  const bomb = framed(deflateRawSync(Buffer.alloc(200 * 1024 * 1024)))
  const garbage = framed(Buffer.alloc(64, 0xff))
  const cases: { what: string; url: string; message: RegExp }[] = [
    { what: 'corrupt', url: shareLink(origin, `v1.${garbage.toString('base64url')}`), message: /^This link is damaged\./ },
    { what: 'truncated', url: shareLink(origin, `v1.${payload.slice(0, Math.floor(payload.length / 2))}`), message: /^This link is incomplete \(it was cut off\)\./ },
    { what: 'bomb', url: shareLink(origin, `v1.${bomb.toString('base64url')}`), message: /^This link is too large\. The decompressed content/ },
    { what: 'oversized', url: shareLink(origin, `v1.${'A'.repeat(600_000)}`), message: /^This link is too large\. The link \(characters\)/ },
    { what: 'newer version', url: shareLink(origin, `v2.${payload}`), message: /^This link was made by a newer version of tabcode\./ },
    {
      what: 'invalid content',
      url: shareLink(origin, `v1.${framed(deflateRawSync(Buffer.from(JSON.stringify({ hello: 'world' })))).toString('base64url')}`),
      message: /^This link('s content is not valid| is damaged)\./,
    },
  ]
  const before = await app.sessionCount()
  for (const { what, url, message } of cases) {
    await app.openLink(url)
    const alert = app.page.getByRole('alert').filter({ hasText: message })
    await expect(alert, what).toBeVisible()
    await expect(alert, what).toContainText('Nothing was imported.')
    expect(await app.sessionCount(), what).toBe(before)
    await alert.getByRole('button', { name: 'Dismiss' }).click()
    // Dismissed, the fragment no longer holds the broken link.
    await expect(app.page, what).not.toHaveURL(/#\/share\//)
  }
})

test('opening the same link twice opens the same session, without a copy', async ({ page }) => {
  const app = await seededSession(page, (projectID) => conversationFixture(projectID, 'Only once', [['Count the copies', 'There is one.']]), 'Only once')
  const originalID = await app.openSessionID()
  const url = await app.createLink()
  const before = await app.sessionCount()
  await app.openLink(url)
  await expect(app.status(OPENED)).toBeVisible()
  const first = await app.openSessionID()
  expect(await app.sessionCount()).toBe(before + 1)
  // Back to our own session (the copy has the same title), then the link again.
  await app.page.goto(`/#/session/${originalID}`)
  await expect(app.importedBanner).toHaveCount(0)
  await app.openLink(url)
  await expect(app.status(OPENED)).toBeVisible()
  expect(await app.openSessionID()).toBe(first)
  expect(await app.sessionCount()).toBe(before + 1)
})

test('a link opened while a large file import is being written waits, says so, and opens after it', async ({ page }) => {
  const app = await seededSession(page, (projectID) => conversationFixture(projectID, 'Linked later', [['Open me next', 'Opened after the import.']]), 'Linked later')
  const url = await app.createLink()
  // A file of ~6 MB: 1,500 turns with long replies, the size that made the tester's import take seconds.
  const turns = Array.from({ length: 1_500 }, (_, turn): [string, string] => [`Question ${turn}`, `Answer ${turn}: ${'lorem ipsum '.repeat(330)}`])
  const big = conversationFixture('prj_elsewhere', 'Big import', turns)
  const file = {
    format: 'tabcode-session',
    version: 1,
    exported: { time: Date.now(), app: 'e2e' },
    session: {
      info: big.sessions[0],
      messages: big.messages!.map((info) => ({ info, parts: big.parts!.filter((part) => part.messageID === info.id) })),
    },
  }
  const before = await app.sessionCount()

  const writes = await app.holdWrites()
  await app.importFile({ name: 'big.json', buffer: Buffer.from(JSON.stringify(file)) })
  await expect(app.status('Importing…')).toBeVisible()
  await app.openLink(url)
  await expect(app.status('Importing… The shared link you opened opens when this is done.')).toBeVisible()
  await writes.release()

  // The import finishes and opens first, then the link's session opens on its own.
  await expect(app.status(OPENED)).toBeVisible({ timeout: 30_000 })
  await expect(app.heading('Linked later')).toBeVisible()
  await expect(app.messages).toContainText('Opened after the import.')
  await expect(app.importedBanner).toContainText('read-only')
  expect(await app.sessionCount()).toBe(before + 2)
  await expect(app.sessionLink(/^Big import/)).toBeVisible()
})

test('a link too long to share is refused, with the file export offered instead', async ({ page }) => {
  // A megabyte of random text does not compress: with tool outputs in full the link is far past 512 K characters.
  const app = await seededSession(
    page,
    (projectID) => {
      const fixture = everyPartTypeFixture({ projectID })
      fixture.sessions[0]!.title = 'Huge outputs'
      const tool = fixture.parts!.find((part) => part.type === 'tool' && part.state.status === 'completed')!
      if (tool.type === 'tool' && tool.state.status === 'completed') tool.state.output = randomBytes(900_000).toString('base64')
      return fixture
    },
    'Huge outputs',
  )
  await app.openShareDialog()
  const dialog = app.shareDialog
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeEnabled()
  await dialog.getByRole('checkbox', { name: 'Include tool outputs in full' }).check()
  const refusal = dialog.getByRole('alert').filter({ hasText: 'This link is too long' })
  await expect(refusal).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeDisabled()
  await page.screenshot({ path: 'test-results/screenshots/share-too-long.png' })
  const [download] = await Promise.all([page.waitForEvent('download'), refusal.getByRole('button', { name: 'Export as file instead' }).click()])
  expect(download.suggestedFilename()).toMatch(/\.json$/)
})

test('export then import of a file is lossless: equal but for ids', async ({ page }) => {
  const app = await seededSession(page, (projectID) => everyPartTypeFixture({ projectID }), T.sessionTitle)
  // Opening repairs the turn the fixture left running; wait for it so the export sees the settled history.
  await expect(app.messages.getByRole('group', { name: /^Tool call: / }).filter({ hasText: T.toolPendingName })).toContainText('interrupted')
  const originalID = await app.openSessionID()
  const file = await app.exportSession()
  expect(file.name).toMatch(/\.json$/)
  expect(JSON.parse(file.text)).toMatchObject({ format: 'tabcode-session', version: 1 })
  const before = await app.sessionCount()

  await app.importFile(file.path)
  await expect(app.status('Imported a session (read-only)')).toBeVisible()
  await expect(app.importedBanner).toContainText('Imported from a file')
  const importedID = await app.openSessionID()
  expect(importedID).not.toBe(originalID)
  expect(await app.sessionCount()).toBe(before + 2) // the session and its child
  const original = await app.historyWithoutIds(originalID)
  expect(original.length).toBeGreaterThan(4)
  expect(await app.historyWithoutIds(importedID)).toEqual(original)
})

for (const name of readdirSync(OPENCODE_FIXTURES).filter((file) => file.endsWith('.json'))) {
  test(`the real opencode export ${name} imports through "Import…" and every part renders`, async ({ page }) => {
    const exported = JSON.parse(readFileSync(join(OPENCODE_FIXTURES, name), 'utf8')) as {
      info: { title: string }
      messages: { parts: { type: string; text?: string; state?: { title?: string } }[] }[]
    }
    const parts = exported.messages.flatMap((message) => message.parts)
    const app = new Sharing(page)
    await app.open()
    await app.importFile(join(OPENCODE_FIXTURES, name))
    await expect(app.status('Imported an opencode session (read-only)')).toBeVisible()
    await expect(app.heading(exported.info.title)).toBeVisible()
    await expect(app.importedBanner).toContainText('opencode')
    const log = app.messages
    for (const part of parts.filter((entry) => entry.type === 'text')) {
      // The words before any Markdown mark: what the rendered text shows as it is.
      const words = part.text!.split(/[`*_#[\]]/)[0]!.trim().slice(0, 40)
      await expect(log, `text "${words}"`).toContainText(words)
    }
    await expect(log.getByText('Reasoning', { exact: true })).toHaveCount(parts.filter((entry) => entry.type === 'reasoning').length)
    const tools = log.getByRole('group', { name: /^Tool call: / })
    await expect(tools).toHaveCount(parts.filter((entry) => entry.type === 'tool').length)
    for (const title of parts.flatMap((entry) => (entry.type === 'tool' && entry.state?.title ? [entry.state.title] : []))) {
      await expect(tools.filter({ hasText: title }), `tool "${title}"`).not.toHaveCount(0)
    }
    await expect(log.getByRole('group', { name: 'Changed files' })).toHaveCount(parts.filter((entry) => entry.type === 'patch').length)
  })
}

test('with the network off, export, share, import and fork all still work', async ({ page, context }) => {
  const app = new Sharing(page)
  await app.open()
  // Every chunk (the worker's lazily loaded ones too) is served by the service worker once it controls the page.
  await app.waitUntilAvailableOffline()
  await app.seed((projectID) => conversationFixture(projectID, 'Offline notes', [['Write it down', 'Written down.']]))
  await app.openSession('Offline notes')

  await context.setOffline(true)
  const file = await app.exportSession()
  const url = await app.createLink()
  await app.importFile(file.path)
  await expect(app.status('Imported a session (read-only)')).toBeVisible()
  await app.importedBanner.getByRole('button', { name: 'Continue in a fork' }).click()
  await expect(app.status(/Continued in a fork/)).toBeVisible()
  await expect(app.heading('Offline notes (fork #1)')).toBeVisible()
  await expect(app.importedBanner).toHaveCount(0)
  await expect(app.prompt).toBeEnabled()
  await expect(app.messages).toContainText('Written down.')
  // The link opens without the network too (the fragment changes; nothing is fetched).
  await app.page.goto(url)
  await expect(app.status(OPENED)).toBeVisible()
  await expect(app.messages).toContainText('Written down.')
  await context.setOffline(false)
})

test('an export with workspace files lists the binary files it could not scan and leaves them out unless kept', async ({ page }) => {
  const model = new ModelScript()
  await model.reset()
  const planted = 'sk-planted-4Hq8Rt2Wn6Ys0Kd3Pb'
  const binary = [0xff, 0xfe, 0x00, ...Buffer.from(`key=${planted}`), 0x80, 0x00]
  const chat = new Conversation(page)
  await chat.open()
  await connectMockModel(page)
  await page.evaluate(
    async ({ env, binary }) => {
      const api = window.__tabcode!.api
      const encoder = new TextEncoder()
      const { project } = await api.createProject({
        name: 'Planted keys',
        source: { type: 'files', files: [{ path: '.env', data: encoder.encode(env) }, { path: 'assets/blob.bin', data: new Uint8Array(binary) }] },
      })
      await api.openProject(project.id)
    },
    { env: `OPENAI_API_KEY=${planted}\n`, binary },
  )
  await page.reload()
  await chat.ready()
  await chat.newSession()
  // One answered turn, so the session has a snapshot of the workspace files.
  await model.push(streamText('I see the files.'), { model: 'mock-model' })
  await chat.send('Look at the files')
  await expect(chat.replies().first()).toContainText('I see the files.')
  await chat.idle()

  const app = new Sharing(page)
  // The dialog says which file it could not scan, and leaves it out unless the user includes it.
  await app.openShareDialog()
  await app.shareDialog.getByRole('checkbox', { name: 'Include workspace files' }).check()
  await expect(app.unscannedFiles()).toContainText('These files are binary, so they could not be checked for keys')
  await expect(app.unscannedFiles().getByRole('checkbox')).toHaveCount(1)
  await expect(app.unscannedFiles().getByRole('checkbox', { name: 'blob.bin' })).not.toBeChecked()
  await app.shareDialog.getByRole('button', { name: 'Close' }).click()

  const binaryBase64 = Buffer.from(binary).toString('base64')
  const left = await app.exportSession({ includeFiles: true })
  expect(left.note).toContain('1 secret removed, 1 unscanned file left out')
  const files = (text: string) => (JSON.parse(text) as { files?: { path: string }[] }).files?.map((file) => file.path)
  expect(files(left.text)).toEqual([expect.stringMatching(/\.env$/)])
  expect(left.text).not.toContain(planted)
  expect(left.text).not.toContain(binaryBase64)

  // Kept on purpose, it travels as it is; the text file's key is still redacted.
  const kept = await app.exportSession({ includeFiles: true, keepUnscanned: ['blob.bin'] })
  expect(files(kept.text)).toEqual([expect.stringMatching(/\.env$/), expect.stringMatching(/blob\.bin$/)])
  expect(kept.text).toContain(binaryBase64)
  expect(kept.text).toContain('OPENAI_API_KEY=[redacted')
})

test('an imported session runs nothing by itself; its fork is the user’s own and answers prompts', async ({ page }) => {
  const model = new ModelScript()
  await model.reset()
  const app = new Sharing(page)
  await app.open()
  await connectMockModel(page)
  await page.reload()
  await app.ready()
  await app.seed((projectID) => conversationFixture(projectID, 'Borrowed work', [['Start the parser', 'The parser has started.']]))
  await app.openSession('Borrowed work')
  const url = await app.createLink()
  await app.openLink(url)
  await expect(app.status(OPENED)).toBeVisible()
  await expect(app.prompt).toBeDisabled()
  expect(await model.requests()).toEqual([])

  await model.push(streamText('The fork goes on from here.'), { model: 'mock-model' })
  await app.importedBanner.getByRole('button', { name: 'Continue in a fork' }).click()
  await expect(app.heading('Borrowed work (fork #1)')).toBeVisible()
  await app.prompt.fill('Carry on')
  await app.prompt.press('Enter')
  await expect(app.messages.getByRole('article', { name: /^Assistant/ }).filter({ hasText: 'The fork goes on from here.' })).toHaveCount(1)
})

test('Settings › Backup exports everything; importing it back adds only what is missing', async ({ page }) => {
  const app = await seededSession(page, (projectID) => conversationFixture(projectID, 'Backed up', [['Keep this', 'Kept.']]), 'Backed up')
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  const backup = settings.getByRole('region', { name: 'Backup' })
  const [download] = await Promise.all([page.waitForEvent('download'), backup.getByRole('button', { name: 'Export everything' }).click()])
  await expect(backup.getByRole('status')).toContainText(`Saved ${download.suggestedFilename()}`)
  const text = readFileSync(await download.path(), 'utf8')
  expect(JSON.parse(text)).toMatchObject({ format: 'tabcode-backup', version: 1 })
  expect(text).not.toContain('sk-')
  const before = await app.sessionCount()

  await backup.getByLabel('Import file').setInputFiles(await download.path())
  await expect(settings).toBeHidden()
  await expect(app.status(/^Restored 0 sessions from the backup · 1 was already here/)).toBeVisible()
  expect(await app.sessionCount()).toBe(before)
})

test('a session file dropped on the workbench is imported', async ({ page }) => {
  const app = new Sharing(page)
  await app.open()
  const text = readFileSync(join(OPENCODE_FIXTURES, 'text-only.json'), 'utf8')
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer()
    data.items.add(new File([text], 'text-only.json', { type: 'application/json' }))
    return data
  }, text)
  await page.dispatchEvent('.workbench-main', 'dragover', { dataTransfer: transfer })
  await page.dispatchEvent('.workbench-main', 'drop', { dataTransfer: transfer })
  await expect(app.status('Imported an opencode session (read-only)')).toBeVisible()
  await expect(app.heading('Greeting the user')).toBeVisible()
})
