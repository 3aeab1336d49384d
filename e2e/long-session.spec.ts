import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { Conversation } from './page-models/conversation'
import { makeBuilders } from '../src/session/fixture-builders'
import type { Message, Part } from '../src/session/schema'
import { longText, ModelScript, streamText } from './support/model-script'

// The virtualised conversation of a long session (issue 3, §5): it opens at the end with a bounded number of
// messages in the page, loads older ones as the reader scrolls up, and holds the reader's place while a reply
// streams below them.

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

async function openLongSession(page: Page) {
  const app = new Conversation(page)
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
      parts.push(build.text(ask, `Question ${turn}`), build.text(reply, answer(turn)))
    }
    return { sessions: [session], messages, parts }
  })
  await app.sessionLink(/^Long conversation/).click()
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

  // And "Jump to latest" brings the end back.
  await page.getByRole('button', { name: 'Jump to latest' }).click()
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
  await app.messages.hover()
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
