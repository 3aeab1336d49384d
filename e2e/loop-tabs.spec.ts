import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { chunk, hang, ModelScript, streamText } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

test('two tabs prompting one session get one runner and no duplicate messages', async ({ context }) => {
  // The first reply is held until the second tab has sent: what the test is about happens while the run is busy.
  await model.push([streamText('Reply to the first tab.', { hold: 'first' }), streamText('Reply covering the second tab.')], { model: 'mock-model' })
  const first = new Conversation(await context.newPage())
  await first.start('Shared work')
  const second = new Conversation(await context.newPage())
  await second.open()
  await second.sessionLink(/^Shared work/).click()

  await first.send('from the first tab')
  await model.waitForRequests(1)
  await second.send('from the second tab')
  await model.release('first')
  for (const tab of [first, second]) {
    await expect(tab.replies().last()).toContainText('Reply covering the second tab.')
    await expect(tab.prompts()).toHaveCount(2)
    await expect(tab.replies()).toHaveCount(2)
  }
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(2)
})

test('stop from another tab cancels the run', async ({ context }) => {
  await model.push([hang(2, { chunks: [chunk.text('Streaming in the first tab ')] })], { model: 'mock-model' })
  const first = new Conversation(await context.newPage())
  await first.start('Cancel me')
  await first.send('go on')
  await expect(first.replies().first()).toContainText('Streaming in the first tab')

  const second = new Conversation(await context.newPage())
  await second.open()
  await second.sessionLink(/^Cancel me/).click()
  await second.stopButton().click()
  await first.idle()
  await expect
    .poll(async () => (await model.requests()).find((request) => request.model === 'mock-model')?.outcome)
    .toBe('client-closed')
})

test('a tab closed mid-stream is recovered when the session is opened again', async ({ context }) => {
  await model.push([hang(4, { chunks: [chunk.text('Words before the tab closed ')], chunkDelayMs: 20 })], { model: 'mock-model' })
  const doomed = new Conversation(await context.newPage())
  await doomed.start('Interrupted')
  await doomed.send('start talking')
  await expect(doomed.replies().first()).toContainText('Words before the tab closed')
  // Give the 50 ms flush a chance to store the text, as it would have in the real world before the tab died.
  await expect
    .poll(() =>
      doomed.page.evaluate(async () => {
        const api = window.__tabcode!.api
        const [session] = (await api.listSessions({})).items
        const page = await api.pageMessages({ sessionID: session!.id })
        return JSON.stringify(page.messages.at(-1)?.parts ?? [])
      }),
    )
    .toContain('Words before the tab closed')
  const observer = new Conversation(await context.newPage())
  await observer.open()
  await observer.sessionLink(/^Interrupted/).click()
  await expect(observer.stopButton()).toBeVisible()
  await doomed.page.close()
  // A tab that was watching sees the runner vanish: the reply is closed and nothing shows it running any more.
  await observer.idle()
  await expect(observer.replies().first()).toContainText('Stopped · The tab running this turn was closed before it finished')
  await observer.page.close()

  const reopened = new Conversation(await context.newPage())
  await reopened.open()
  await reopened.sessionLink(/^Interrupted/).click()
  await expect(reopened.replies().first()).toContainText('Words before the tab closed')
  await expect(reopened.replies().first()).toContainText('The tab running this turn was closed before it finished')
  await reopened.idle()

  await model.push([streamText('Carrying on.')], { model: 'mock-model' })
  await reopened.send('continue please')
  await expect(reopened.replies().last()).toContainText('Carrying on.')
  // The model got a well-formed history: the interrupted reply's text, then the new prompt.
  const requests = (await model.requests()).filter((request) => request.model === 'mock-model')
  expect(JSON.stringify(requests.at(-1)!.body!.messages)).toContain('Words before the tab closed')
})
