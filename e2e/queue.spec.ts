import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { chunk, ModelScript, stream, streamText, type RecordedRequest } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

/** A first reply slow enough (~27 s at the server's pace) for the queue to be worked on while it streams. */
const slowReply = (text: string) =>
  stream([chunk.text(`${text} ${Array.from({ length: 80 }, (_, index) => `w${index}`).join(' ')}`, 1)], { chunkDelayMs: 80 })

/** The text of the newest user message each request to the conversation's model sent. */
function lastPrompts(requests: RecordedRequest[]): string[] {
  return requests
    .filter((request) => request.model === 'mock-model')
    .map((request) => {
      const content = request.body?.messages.filter((message) => message.role === 'user').at(-1)?.content
      return typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('')
    })
}

function chips(app: Conversation) {
  return app.page.getByRole('list', { name: 'Queued prompts' }).getByRole('listitem')
}

test('queued prompts show as chips in every tab, can be edited and removed, and the rest run after the turn in order', async ({ context }) => {
  test.setTimeout(120_000)
  await model.push([slowReply('First answer.'), streamText('Answer to the edited prompt.'), streamText('Answer to the third.')], { model: 'mock-model' })
  const app = new Conversation(await context.newPage())
  await app.start('Queue work')
  await app.send('first task')
  await expect(app.replies().first()).toContainText('First answer.')

  await app.queue('then write the tests')
  await expect(chips(app)).toHaveCount(1)
  await expect(app.page.getByRole('listitem', { name: 'Queued prompt 1: then write the tests' })).toBeVisible()

  // A second tab opened now reads the queue, and follows every change made in the first.
  const other = new Conversation(await context.newPage())
  await other.open()
  await other.sessionLink(/^Queue work/).click()
  await expect(other.page.getByRole('listitem', { name: 'Queued prompt 1: then write the tests' })).toBeVisible()

  // Edited in place: it keeps its place in the queue.
  await app.queue('then update the docs')
  await expect(chips(app)).toHaveCount(2)
  await app.page.getByRole('listitem', { name: /^Queued prompt 1:/ }).getByRole('button', { name: 'Edit queued prompt' }).click()
  const editor = app.page.getByRole('textbox', { name: 'Queued prompt 1' })
  await editor.fill('then write the unit tests')
  await editor.press('Enter')
  await expect(app.page.getByRole('listitem', { name: 'Queued prompt 1: then write the unit tests' })).toBeVisible()
  await expect(app.page.getByRole('listitem', { name: 'Queued prompt 2: then update the docs' })).toBeVisible()
  await expect(other.page.getByRole('listitem', { name: 'Queued prompt 1: then write the unit tests' })).toBeVisible()

  await app.page.getByRole('listitem', { name: /^Queued prompt 2:/ }).getByRole('button', { name: 'Remove queued prompt' }).click()
  await expect(chips(app)).toHaveCount(1)
  await expect(chips(other)).toHaveCount(1)
  // Everything above happened while the first turn was still streaming.
  await expect(app.stopButton()).toBeVisible()

  // The first reply streams on at the server's pace; then the edited prompt runs.
  await expect(app.replies().last()).toContainText('Answer to the edited prompt.', { timeout: 60_000 })
  await app.idle()
  await expect(chips(app)).toHaveCount(0)
  await expect(chips(other)).toHaveCount(0)
  expect(lastPrompts(await model.requests())).toEqual(['first task', 'then write the unit tests'])
  // The removed prompt never ran: its scripted answer is still waiting.
  expect(await model.pending()).toEqual({ 'mock-model': 1 })
})

test('a prompt queued before the tab reloads mid-turn still runs', async ({ page }) => {
  test.setTimeout(120_000)
  await model.push([slowReply('Started.'), streamText('Answer to the queued prompt.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Reload mid-turn')
  await app.send('long task')
  await expect(app.replies().first()).toContainText('Started.')
  await app.queue('afterwards, summarise')
  await expect(chips(app)).toHaveCount(1)

  await page.reload()
  await app.ready()
  await app.sessionLink(/^Reload mid-turn/).click()
  await expect(app.replies().last()).toContainText('Answer to the queued prompt.')
  await expect(chips(app)).toHaveCount(0)
  await expect(app.prompts().last()).toContainText('afterwards, summarise')
  expect(lastPrompts(await model.requests())).toEqual(['long task', 'afterwards, summarise'])
})
