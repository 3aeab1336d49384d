import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_KEY } from './testing/connect-model'
import { chunk, error, hang, ModelScript, MOCK_MODEL_SERVER_URL, rateLimited, stream, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

async function ready(page: import('@playwright/test').Page) {
  const app = new Conversation(page)
  await app.start()
  return app
}

test('streams reasoning and text, then shows tokens and cost per message and per session', async ({ page }) => {
  await model.push(
    [
      stream([chunk.reasoning('Weighing the parser options. ', 4), chunk.text('The **parser** is ready.', 3)], {
        usage: { prompt_tokens: 1_000, completion_tokens: 500, completion_tokens_details: { reasoning_tokens: 100 } },
        chunkDelayMs: 5,
      }),
    ],
    { model: 'mock-model' },
  )
  await model.push([streamText('Parser readiness check')], { model: 'mock-small' })
  const app = await ready(page)
  await app.send('Is the parser ready?')
  const reply = app.replies().first()
  await expect(reply.getByText('parser', { exact: true })).toBeVisible()
  await expect(reply).toContainText('The parser is ready.')
  await expect(reply).toContainText('Reasoning')
  // 1,000 in × $2 + 400 out × $8 + 100 reasoning × $8 per million = $0.006
  await expect(reply).toContainText('$0.0060')
  await expect(app.main.getByRole('heading', { level: 1 })).toHaveText('Parser readiness check')
  await expect(app.main).toContainText('1k in')

  const [request] = await model.waitForRequests(1)
  expect(request!.hasAuthorization).toBe(true)
  expect(request!.apiKeyLast4).toBe(MOCK_KEY.slice(-4))
  expect(request!.body!.stream).toBe(true)

  await model.push([streamText('Second answer', { usage: { prompt_tokens: 2_000, completion_tokens: 0 } })], { model: 'mock-model' })
  await app.send('And again?')
  await expect(app.replies()).toHaveCount(2)
  // The session sums both steps: $0.006 + 2,000 × $2 per million = $0.010
  await expect(app.main.locator('header', { has: page.getByRole('heading', { level: 1 }) })).toContainText('$0.0100')
})

test('runs one and parallel tool calls through a multi-step turn to completion', async ({ page }) => {
  const todos = (content: string, status: string) => ({ todos: [{ id: content, content, status, priority: 'high' }] })
  await model.push(
    [
      toolCalls([{ id: 'call_a', name: 'todowrite', args: todos('Read the spec', 'in_progress') }]),
      toolCalls([
        { id: 'call_b', name: 'todowrite', args: todos('Read the spec', 'completed') },
        { id: 'call_c', name: 'todowrite', args: todos('Write the code', 'in_progress') },
      ]),
      streamText('All steps done.'),
    ],
    { model: 'mock-model' },
  )
  const app = await ready(page)
  await app.send('Plan and do it')
  await expect(app.replies().last()).toContainText('All steps done.')
  await expect(app.replies()).toHaveCount(3)
  await expect(app.messages.getByRole('group', { name: /^Tool call: todowrite/ })).toHaveCount(3)
  await expect(page.getByRole('region', { name: 'Todos' })).toContainText('Write the code')
  const requests = await model.requests()
  const chat = requests.filter((request) => request.model === 'mock-model')
  expect(chat).toHaveLength(3)
  // The last request carries both parallel results back to the model.
  const last = chat[2]!.body!.messages.filter((message) => message.role === 'tool')
  expect(last.map((message) => message.tool_call_id)).toEqual(['call_a', 'call_b', 'call_c'])
})

test('waits out a 429 with retry-after, then answers', async ({ page }) => {
  await model.push([rateLimited(2), streamText('Made it after the wait.')], { model: 'mock-model' })
  const app = await ready(page)
  await app.send('hello')
  await expect(app.status).toContainText(/Retrying \(attempt 1\) in [12] s/)
  await expect(app.replies().first()).toContainText('Made it after the wait.')
  const requests = (await model.requests()).filter((request) => request.model === 'mock-model')
  expect(requests).toHaveLength(2)
  expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1_900)
})

test('retries a 500 twice and then succeeds', async ({ page }) => {
  await model.push([error(500, { repeat: 2 }), streamText('Third time lucky.')], { model: 'mock-model' })
  const app = await ready(page)
  await page.evaluate(() => window.__tabcode!.api.setSetting({ key: 'retry.limit', value: 3 }))
  await app.send('hello')
  await expect(app.replies().first()).toContainText('Third time lucky.', { timeout: 15_000 })
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(3)
})

test('gives up at the attempt limit with a clear error and a retry action', async ({ page }) => {
  await model.push([error(503, { repeat: 2, message: 'upstream unavailable' }), streamText('Back again.')], { model: 'mock-model' })
  const app = await ready(page)
  await page.evaluate(() => window.__tabcode!.api.setSetting({ key: 'retry.limit', value: 1 }))
  await app.send('hello')
  const alert = page.getByRole('alert').filter({ hasText: 'Gave up after 1 retry' })
  await expect(alert).toContainText('upstream unavailable')
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(2)
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(app.replies().last()).toContainText('Back again.')
})

test('a context overflow ends the turn with an actionable error and no retry', async ({ page }) => {
  await model.push([error(400, { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens." })], {
    model: 'mock-model',
  })
  const app = await ready(page)
  await app.send('a very long question')
  await expect(page.getByRole('alert')).toContainText(/context window/i)
  await expect(page.getByRole('alert')).toContainText('maximum context length is 8192 tokens')
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(1)
})

test('stop cancels mid-stream, keeps the text so far, and the next prompt works', async ({ page }) => {
  await model.push([hang(3, { chunks: [chunk.text('Half an answer ')] })], { model: 'mock-model' })
  const app = await ready(page)
  await app.send('tell me everything')
  await expect(app.replies().first()).toContainText('Half an answer')
  await app.stopButton().click()
  await app.idle()
  await expect
    .poll(async () => (await model.requests()).find((request) => request.model === 'mock-model')?.outcome)
    .toBe('client-closed')
  await expect(app.replies().first()).toContainText('Half an answer')

  await model.push([streamText('Fresh start.')], { model: 'mock-model' })
  await app.send('again')
  await expect(app.replies().last()).toContainText('Fresh start.')
})

test('stop cancels a running tool: the fetch is aborted and the call is marked interrupted', async ({ page }) => {
  await model.push([toolCalls([{ id: 'call_fetch', name: 'webfetch', args: { url: `${MOCK_MODEL_SERVER_URL}/slow` } }])], { model: 'mock-model' })
  const app = await ready(page)
  await app.send('read that page')
  // A fetch asks for its host first (issue 27).
  await page.getByRole('dialog', { name: /^Allow fetching from 127\.0\.0\.1:\d+\?$/ }).getByRole('button', { name: 'Allow once' }).click()
  const card = app.messages.getByRole('group', { name: /^Tool call: webfetch/ })
  await expect(card).toContainText('running')
  await expect.poll(async () => (await model.slow()).opened).toBe(1)
  await app.stopButton().click()
  await app.idle()
  await expect(card).toContainText('interrupted')
  await expect(card).toContainText('Tool execution aborted')
  await expect.poll(async () => (await model.slow()).closed).toBe(1)
  // The next turn sends the interrupted call back with a result, so the model can go on.
  await model.push([streamText('Understood, skipping that page.')], { model: 'mock-model' })
  await app.send('never mind')
  await expect(app.replies().last()).toContainText('Understood, skipping that page.')
  const last = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  expect(last.body!.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['call_fetch'])
})

test('Escape stops the turn too', async ({ page }) => {
  await model.push([hang(2, { chunks: [chunk.text('Going on and on ')] })], { model: 'mock-model' })
  const app = await ready(page)
  await app.send('talk')
  await expect(app.replies().first()).toContainText('Going on')
  await app.prompt.focus()
  await page.keyboard.press('Escape')
  await app.idle()
})

test('a prompt sent while running is answered in the same run; a queued one after the turn', async ({ page }) => {
  await model.push(
    [
      // The server holds the first answer back until the next two prompts have arrived while it runs.
      toolCalls([{ id: 'call_1', name: 'todowrite', args: { todos: [] } }], { hold: 'first' }),
      streamText('Answered both the first and the steer.'),
      streamText('Answer to the queued prompt.'),
    ],
    { model: 'mock-model' },
  )
  const app = await ready(page)
  await app.send('first task')
  await model.waitForRequests(1)
  await app.send('also consider this')
  await app.queue('and afterwards this')
  await model.release('first')
  await expect(app.replies().last()).toContainText('Answer to the queued prompt.')
  const texts = await app.messages.getByRole('article').allInnerTexts()
  const order = texts.map((text) => (text.includes('first task') ? 'first' : text.includes('also consider') ? 'steer' : text.includes('afterwards') ? 'queued' : text.includes('Answered both') ? 'reply-both' : text.includes('queued prompt') ? 'reply-queued' : 'other'))
  expect(order.indexOf('queued')).toBeGreaterThan(order.indexOf('reply-both'))
  expect(order.indexOf('reply-queued')).toBeGreaterThan(order.indexOf('queued'))
  expect((await model.requests()).filter((request) => request.model === 'mock-model')).toHaveLength(3)
})
