import type { Locator, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Durable } from './page-models/durable'
import { makeBuilders } from '../src/testing/fixture-builders'
import type { Message, Part } from '../src/core/schema'
import { longText, ModelScript, streamText } from './testing/model-script'

// The virtualised conversation of a long session (issue 3): it opens at the end with a bounded number of
// messages in the page, loads older ones as the reader scrolls up, holds the reader's place while a reply streams
// below them, and opens at an old message that a search found.

const model = new ModelScript()
const TURNS = 200
/** The list's bound on mounted messages (MAX_MOUNTED_ROWS in src/ui/session/create-virtual-list.ts). */
const MOUNTED_AT_MOST = 60

test.describe.configure({ timeout: 60_000 })

test.beforeEach(async () => {
  await model.reset()
})

/** Answers of different lengths, so rows differ in height and the list's estimate for unmeasured rows is a guess. */
const answer = (turn: number) => `Answer ${turn}. ${'The lexer keeps its place between lines. '.repeat(1 + (turn % 7))}`
/** An early question with a word found nowhere else: far outside the page the session opens with. */
const EARLY_TURN = 7
const question = (turn: number) => (turn === EARLY_TURN ? `Question ${turn}: why does the marmalade token stall?` : `Question ${turn}`)

/**
 * Turns the mouse wheel up over the conversation until `target` is wholly in view. Each turn moves less than the
 * viewport's height, so nothing is skipped; the retries are the wait for the list to settle after each turn.
 */
async function scrollUpTo(page: Page, target: Locator, step = 300) {
  await expect(async () => {
    await page.mouse.wheel(0, -step)
    await expect(target).toBeInViewport({ ratio: 1, timeout: 100 })
  }).toPass({ intervals: [50], timeout: 30_000 })
}

/** How many pixels of the log's visible part (the log clipped by its scroller) `control` covers. */
async function coveredLogHeight(log: Locator, control: Locator): Promise<number> {
  const box = (await control.boundingBox())!
  return log.evaluate((element, box) => {
    const scroller = element.closest('.message-scroller')!.getBoundingClientRect()
    const logBox = element.getBoundingClientRect()
    const top = Math.max(scroller.top, logBox.top, box.y)
    const bottom = Math.min(scroller.bottom, logBox.bottom, box.y + box.height)
    const left = Math.max(scroller.left, logBox.left, box.x)
    const right = Math.min(scroller.right, logBox.right, box.x + box.width)
    return right > left && bottom > top ? bottom - top : 0
  }, box)
}

async function openLongSession(page: Page, options: { open?: boolean } = {}) {
  const app = new Durable(page)
  await app.start()
  const build = makeBuilders(Date.now() - 24 * 60 * 60_000)
  await app.seed((projectID) => {
    const session = build.session({ projectID, title: 'Long conversation' })
    const messages: Message[] = []
    const parts: Part[] = []
    for (let turn = 1; turn <= TURNS; turn++) {
      const ask = build.user(session.id)
      const reply = build.assistant(session.id, ask.id)
      messages.push(ask, reply)
      parts.push(build.text(ask, question(turn)), build.text(reply, answer(turn)))
    }
    return { sessions: [session], messages, parts }
  })
  if (options.open !== false) await app.sessionLink(/^Long conversation/).click()
  return app
}

test('a long session opens at its end with a bounded page, and older messages load as the reader scrolls up', async ({ page }) => {
  const app = await openLongSession(page)
  const articles = app.messages.getByRole('article')
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toBeInViewport()
  expect(await articles.count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)

  // Scrolling up reaches turns that were not loaded when the session opened (the first page holds 25 turns).
  await app.messages.hover()
  await scrollUpTo(page, app.messages.getByText('Question 160', { exact: true }), 400)
  expect(await articles.count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toHaveCount(0)

  // "Jump to latest" sits under the log, not over it, even when the conversation's column fills the main area (the
  // workspace open beside it, as it is at this width).
  const jump = page.getByRole('button', { name: 'Jump to latest' })
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeVisible()
  await expect(jump).toBeVisible()
  expect(await coveredLogHeight(app.messages, jump)).toBe(0)

  // And it brings the end back.
  await jump.click()
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toBeInViewport()
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
})

test('a reader scrolled up keeps their place while a reply streams below, and the list follows again once back at the end', async ({
  page,
}) => {
  const app = await openLongSession(page)
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toBeInViewport()

  // ~2,000 deltas of 4 characters, 2 every 10 ms: about 10 s of streaming, of which the test needs a few.
  const ending = 'That is the whole plan for the lexer.'
  await model.push([streamText(`${longText(8_000)}\n\n${ending}`, { chunkDelayMs: 10, eventsPerWrite: 2 })], { model: 'mock-model' })
  await app.send('Walk me through the lexer once more')
  const reply = app.replies().last()
  await expect(reply).toContainText('The parser walks')
  await expect(app.stopButton()).toBeVisible()

  // The reader scrolls up to an earlier answer while the reply streams: the list stops following the end, and what
  // they read stays put as the reply grows below it.
  await app.pointAtMessages()
  await page.mouse.wheel(0, -300)
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
  const earlier = app.messages.getByText(`Answer ${TURNS - 3}.`)
  await earlier.scrollIntoViewIfNeeded()
  await expect(earlier).toBeInViewport({ ratio: 1 })
  const before = (await earlier.boundingBox())!
  const streamed = (await reply.textContent())!.length
  await expect.poll(async () => (await reply.textContent())!.length).toBeGreaterThan(streamed + 500)
  const during = (await earlier.boundingBox())!
  expect(Math.abs(during.y - before.y)).toBeLessThan(1)
  expect(await app.messages.getByRole('article').count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)

  // Back at the end, the list follows the reply to its last line.
  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await expect(reply).toContainText(ending, { timeout: 30_000 })
  await app.idle()
  await expect(reply.getByText(ending)).toBeInViewport()
})

test('a search hit far back in a long session opens the session at that message', async ({ page }) => {
  const app = await openLongSession(page, { open: false })
  await app.search('marmalade')
  await app.searchResult(/^Long conversation/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Long conversation' })).toBeVisible()
  // ~390 messages back from the end: older pages load until it is there, and it is scrolled to and marked.
  const target = app.messages.locator('[data-search-target]')
  await expect(target).toContainText(question(EARLY_TURN))
  await expect(target).toBeInViewport()
  expect(await app.messages.getByRole('article').count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)
  // The reader is where the hit is, not following the end.
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
})
