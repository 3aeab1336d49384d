import type { Locator, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Durable } from './page-models/durable'
import { Sharing } from './page-models/share'
import { makeBuilders } from '../src/testing/fixture-builders'
import type { Message, Part } from '../src/core/schema'
import { ModelScript, streamText } from './testing/model-script'

// A session as long as a test can seed in a few seconds (issue 18: 100,000 messages stay usable; the bench's
// `--only=huge` times that size): it opens at its end, pages older messages as the reader scrolls up, search finds
// a word in it among 20,000 messages, a prompt gets its reply, and the whole of it exports.

const model = new ModelScript()
const TURNS = 10_000
const CHUNK_TURNS = 2_500
const MOUNTED_AT_MOST = 60
const RARE_TURN = 9_990

test.describe.configure({ timeout: 240_000 })

test.beforeEach(async () => {
  await model.reset()
})

const question = (turn: number) => (turn === RARE_TURN ? `Question ${turn}: why does the quince lexer stall?` : `Question ${turn}`)
const answer = (turn: number) => `Answer ${turn}. ${'The lexer keeps its place between lines. '.repeat(1 + (turn % 5))}`

async function scrollUpTo(page: Page, target: Locator) {
  await expect(async () => {
    await page.mouse.wheel(0, -400)
    await expect(target).toBeInViewport({ ratio: 1, timeout: 100 })
  }).toPass({ intervals: [50], timeout: 30_000 })
}

test('a session of 20,000 messages opens, scrolls, is searched, answers a prompt and exports', async ({ page }) => {
  const app = new Durable(page)
  await app.start()
  const build = makeBuilders(Date.now() - 30 * 24 * 60 * 60_000)
  const session = build.session({ title: 'Huge conversation' })
  for (let from = 1; from <= TURNS; from += CHUNK_TURNS) {
    await app.seed((projectID) => {
      const messages: Message[] = []
      const parts: Part[] = []
      for (let turn = from; turn < from + CHUNK_TURNS; turn++) {
        const ask = build.user(session.id)
        const reply = build.assistant(session.id, ask.id)
        messages.push(ask, reply)
        parts.push(build.text(ask, question(turn)), build.text(reply, answer(turn)))
      }
      return { sessions: from === 1 ? [{ ...session, projectID }] : [], messages, parts }
    })
  }

  // Open: the newest messages, a bounded number of them in the page.
  await app.sessionLink(/^Huge conversation/).click()
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toBeInViewport()
  const articles = app.messages.getByRole('article')
  expect(await articles.count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)

  // Scroll: older pages load as the reader goes up, and the list stays bounded.
  await app.pointAtMessages()
  await scrollUpTo(page, app.messages.getByText(`Question ${TURNS - 40}`, { exact: true }))
  expect(await articles.count()).toBeLessThanOrEqual(MOUNTED_AT_MOST)

  // Search: a word in one message of the 20,000 is found, and the hit opens the session at it.
  await app.search('quince')
  await expect(app.searchResults.getByRole('listitem')).toHaveCount(1)
  await app.searchResult(/^Huge conversation/).click()
  await expect(app.messages.locator('[data-search-target]')).toContainText(question(RARE_TURN))
  await app.searchBox.fill('')

  // Prompt: 20,000 messages are more than the model's context, so the session compacts first (the summariser's
  // reply), then the prompt is answered below them.
  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await expect(app.messages.getByText(`Answer ${TURNS}.`)).toBeInViewport()
  await model.push([streamText('Objective: a lexer that never stalls.'), streamText('The quince lexer stalls on a tab.')], { model: 'mock-model' })
  await app.send('And after all that?')
  await expect(app.replies().last()).toContainText('The quince lexer stalls on a tab.', { timeout: 60_000 })
  // The turn's end still reads the whole history (the loop's and turn-end diffs' reads, issue 18's first point).
  await expect(app.stopControl()).toHaveCount(0, { timeout: 60_000 })

  // Export: the whole session, every message in it.
  const file = await new Sharing(page).exportSession()
  const exported = JSON.parse(file.text) as { session: { messages: unknown[] } }
  // Every seeded message, then the prompt, the compaction's messages and the reply.
  expect(exported.session.messages.length).toBeGreaterThanOrEqual(TURNS * 2 + 2)
  expect(file.text).toContain(question(RARE_TURN))
  expect(JSON.stringify(exported.session.messages.at(-1))).toContain('The quince lexer stalls on a tab.')
})
