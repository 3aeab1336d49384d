import { expect, test } from './testing/fixtures'
import { Durable } from './page-models/durable'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './testing/fixtures-data'
import { chunk, ModelScript, stream } from './testing/model-script'

// The clear wording every write shows when the browser refuses it for lack of space (src/core/errors.ts).
const FULL = /The browser's storage for tabcode is full, so the last change was not saved \(what was saved before is intact\)/

test('with the network off, stored history lists, reads and is searchable by the words of its messages', async ({ page, context }) => {
  const app = new Durable(page)
  await app.open()
  // The service worker takes control on the first visit, so the shell is cached from here on.
  await app.waitUntilAvailableOffline()
  await app.seed((projectID) => everyPartTypeFixture({ projectID }))
  await app.newSession()
  await app.rename(/New session · /, 'Written before going offline')

  await context.setOffline(true)
  // Still on the loaded page: a word that only appears inside a message finds it.
  await app.search('tidy')
  await expect(app.searchResults.getByRole('link')).toHaveCount(1)
  await expect(app.searchResult(new RegExp(`^${T.sessionTitle}`)).locator('mark')).toHaveText('tidy')

  // A reload with no network is served by the service worker.
  await page.reload()
  await app.ready()
  await expect(app.sessionLinks()).toHaveCount(2)
  await app.sessionLink(/^Written before going offline/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Written before going offline' })).toBeVisible()
  await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
  await expect(app.messages).toContainText(T.userText)
  await expect(app.messages).toContainText(T.assistantText)
  await app.sessionLink(/^Written before going offline/).click()

  // Two words, from different parts of one reply's text, in any case.
  await app.search('NESTED handles')
  const hit = app.searchResult(new RegExp(`^${T.sessionTitle}`))
  await expect(hit).toContainText(T.assistantText)
  await expect(hit.locator('mark')).toHaveText(/nested/i)
  // The keyboard way in: ArrowDown from the box reaches the result, Enter opens its session.
  await app.searchBox.press('ArrowDown')
  await expect(hit).toBeFocused()
  await hit.press('Enter')
  await expect(app.main.getByRole('heading', { level: 1, name: T.sessionTitle })).toBeVisible()
  // The message the hit came from is scrolled to and marked for a moment.
  const target = app.messages.locator('[data-search-target]')
  await expect(target).toContainText(T.assistantText)
  await expect(target).toBeInViewport()
  await expect(app.messages).toContainText(T.assistantText)

  // Titles are searched too; a word found nowhere says so; Escape brings the session list back.
  await app.search('offline')
  await expect(app.searchResult(/^Written before going offline/)).toBeVisible()
  await app.search('zebracorn')
  await expect(app.sessions.getByText('No matches for “zebracorn” in titles or messages.')).toBeVisible()
  await app.searchBox.press('Escape')
  await expect(app.searchBox).toHaveValue('')
  await expect(app.sessionLinks()).toHaveCount(2)

  // The storage status reads locally too.
  await app.openStorage()
  await expect(app.storage).toContainText(/Persistent storage: (granted|not granted — the browser may clear tabcode's data when space runs low)/)
  await expect(app.storage).toContainText(/Using [\d.]+ (bytes|kB|MB|GB) of [\d.]+ (kB|MB|GB|TB)/)
  await context.setOffline(false)
})

test('a full disk shows its message on every write, mid-reply too, and loses nothing already stored', async ({ page }) => {
  // Filling the disk waits out Chromium's ~30 s cache of the space it has (see Durable.fillDisk).
  test.setTimeout(150_000)
  const model = new ModelScript()
  await model.reset()
  const app = new Durable(page)
  await app.start('Kept safe')
  await app.seed((projectID) => everyPartTypeFixture({ projectID }))
  await app.newSession()
  await app.rename(/New session · /, 'Long reply')
  // A slow reply that is still streaming when the disk fills up.
  const words = Array.from({ length: 90 }, (_, index) => `word${index + 1}`).join(' ')
  await model.push(stream([chunk.text(words, 8)], { chunkDelayMs: 500 }))
  await app.send('Write a long answer')
  await expect(app.messages).toContainText('word3 ')

  await app.fillDisk()

  await app.sessionLink(/^Kept safe/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Kept safe' })).toBeVisible()
  await app.sessions.getByRole('button', { name: 'New session' }).click()
  await expect(app.problem).toContainText(/^Couldn't create a session: /)
  await expect(app.problem).toContainText(FULL)
  await expect(app.sessionLinks()).toHaveCount(3)
  await app.dismissProblem()

  await app.sessions.getByRole('button', { name: 'Rename session "Kept safe"' }).click()
  const field = app.sessions.getByRole('textbox', { name: 'Session title' })
  await field.fill('Renamed on a full disk')
  await field.press('Enter')
  await expect(app.problem).toContainText(/^Couldn't rename the session: /)
  await expect(app.problem).toContainText(FULL)
  await expect(app.sessionLink(/^Kept safe/)).toBeVisible()
  await app.dismissProblem()

  await app.prompt.fill('Remember this for later')
  await app.prompt.press('Enter')
  const promptProblem = app.main.locator('.prompt-problem')
  await expect(promptProblem).toContainText(/^Couldn't send the prompt: /)
  await expect(promptProblem).toContainText(FULL)
  // What was typed stays in the box, ready to send again.
  await expect(app.prompt).toHaveValue('Remember this for later')

  // The reply that was streaming fails with the same words once its next save is refused.
  await app.sessionLink(/^Long reply/).click()
  await expect(app.main.locator('.session-error-banner')).toContainText(FULL, { timeout: 60_000 })

  // Space comes back; after a reload everything stored before is there and reads, and nothing half-written is.
  await app.freeDisk()
  await page.reload()
  await app.ready()
  await expect(app.sessionLinks()).toHaveCount(3)
  await expect(app.sessionLink(/^Kept safe/)).toBeVisible()
  await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
  await expect(app.messages).toContainText(T.userText)
  await expect(app.messages).toContainText(T.assistantText)
  await expect(app.messages).toContainText(T.afterCompactionText)
  await app.sessionLink(/^Long reply/).click()
  await expect(app.messages).toContainText('Write a long answer')
  await expect(app.messages).toContainText('word3 ')
  await app.sessionLink(/^Kept safe/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Kept safe' })).toBeVisible()
  await expect(app.main.getByText('No messages yet.')).toBeVisible()
  // Only the long reply ever reached the model: the refused prompt was never sent.
  expect(await model.requests()).toHaveLength(1)
  // And writes work again.
  await app.rename(/Kept safe/, 'Kept safe, renamed later')
  await expect(app.problem).toHaveCount(0)
})

test('a disk that fills mid-reply stops the turn at the first refused save and says so at once; the reply shown is the reply stored', async ({ page }) => {
  // Filling the disk waits out Chromium's ~30 s cache of the space it has (see Durable.fillDisk).
  test.setTimeout(180_000)
  const model = new ModelScript()
  await model.reset()
  const app = new Durable(page)
  await app.start('Long reply')
  // About 6,000 words at ~50 deltas a second: still streaming long after the disk is full.
  const total = 6_000
  const words = Array.from({ length: total }, (_, index) => `word${index + 1}`).join(' ')
  await model.push(stream([chunk.text(words, 8)], { chunkDelayMs: 20 }))
  await app.send('Write a long answer')
  await expect(app.messages).toContainText('word3 ')

  await app.watchWrites()
  // When the storage-full banner first shows, by the same clock the worker's refusal is timed with.
  await page.evaluate(() => {
    const scope = window as Window & { __bannerAt?: number }
    const look = () => {
      const banner = document.querySelector('.session-error-banner')
      if (scope.__bannerAt === undefined && banner?.textContent?.includes("The browser's storage for tabcode is full")) scope.__bannerAt = Date.now()
    }
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  await app.fillDisk()

  const banner = app.main.locator('.session-error-banner')
  await expect(banner).toContainText(FULL, { timeout: 10_000 })
  await app.idle()
  const { refusedAt, unhandled } = await app.writes()
  const bannerAt = await page.evaluate(() => (window as Window & { __bannerAt?: number }).__bannerAt ?? 0)
  expect(refusedAt).toBeGreaterThan(0)
  expect(bannerAt - refusedAt, 'the banner shows within a second of the first refused write').toBeLessThan(1_000)
  // Nothing failed unseen: every refused save was handled (the tester saw ~16 uncaught AbortErrors a second).
  expect(unhandled).toEqual({ worker: [], page: [] })

  // The turn stopped: the reply is cut short, and what it shows is what storage kept.
  const lastWord = async () => Math.max(0, ...[...(await app.replies().last().innerText()).matchAll(/word(\d+)/g)].map((match) => Number(match[1])))
  const shown = await lastWord()
  expect(shown).toBeGreaterThan(3)
  expect(shown).toBeLessThan(total)

  await app.freeDisk()
  await page.reload()
  await app.ready()
  await app.sessionLink(/^Long reply/).click()
  await expect(app.messages).toContainText('Write a long answer')
  await expect(app.replies().last()).toContainText(`word${shown}`)
  expect(await lastWord()).toBe(shown)
})
