import { expect, test } from './testing/fixtures'
import { History } from './page-models/history'
import { chunk, error, ModelScript, stream, streamText } from './testing/model-script'
import { isSummariser, requestsOf } from './testing/requests'

// Provider errors as they really arrive: inside a 200 stream after some text, as a quota answer, as a message that
// is the upstream's JSON. Classification: opencode's, per provider in
// src/session/retry-providers.test.ts; here the Chat Completions path end to end.

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const SERVER_ERROR = 'The server had an error while processing your request. Sorry about that!'
const SUMMARY = 'Objective: a parser. Done: the plan. Next: the tests.'

async function start(page: import('@playwright/test').Page) {
  const app = new History(page)
  await app.start('Errors')
  return app
}

test('a server_error chunk mid-stream is retried with the provider’s words in the status, and the turn completes', async ({ page }) => {
  await model.push(
    [stream([chunk.text('Half an answer '), chunk.error(SERVER_ERROR)], { finish: null, usage: null }), streamText('The whole answer.')],
    { model: 'mock-model' },
  )
  const app = await start(page)
  await app.send('hello')
  await expect(app.status).toContainText('Retrying (attempt 1)')
  await expect(app.status).toContainText(SERVER_ERROR)
  await expect(app.replies().first()).toContainText('The whole answer.')
  await app.idle()
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(requestsOf(await model.requests())).toHaveLength(2)
})

test('an in-stream context_length_exceeded compacts and continues', async ({ page }) => {
  // Only the code says it: the words are none of the known overflow wordings.
  const overflow = chunk.error('Request too long for this model.', { type: 'invalid_request_error', code: 'context_length_exceeded' })
  await model.push(
    [
      streamText('The parser plan is ready.'),
      stream([chunk.text('Starting the '), overflow], { finish: null, usage: null }),
      streamText(SUMMARY),
      streamText('Answered after compacting.'),
    ],
    { model: 'mock-model' },
  )
  const app = await start(page)
  await app.send('Plan the parser')
  await expect(app.reply('The parser plan is ready.')).toHaveCount(1)
  await app.idle()
  await app.send('Now write the tests')
  await expect(app.reply('Answered after compacting.')).toHaveCount(1)
  await app.idle()
  await expect(app.divider()).toHaveCount(1)
  // The first turn, the request the stream cut short, the summariser, the prompt replayed after the summary.
  expect(requestsOf(await model.requests()).map(isSummariser)).toEqual([false, false, true, false])
  expect(await model.pending()).toEqual({})
})

test('an insufficient_quota 429 stops at once with advice and is not retried', async ({ page }) => {
  await model.push(
    [
      error(429, {
        headers: { 'retry-after': '1' },
        body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } },
      }),
      streamText('Never sent.'),
    ],
    { model: 'mock-model' },
  )
  const app = await start(page)
  await app.send('hello')
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('The account has no quota left for this model')
  await expect(alert).toContainText('check your plan and billing at the provider')
  // The banner shows only once the turn has ended: a retry would have come before it.
  expect(requestsOf(await model.requests())).toHaveLength(1)
  expect(await model.pending()).toEqual({ 'mock-model': 1 })
})

test('an error message that is the upstream’s JSON shows the provider’s reason in the retry status', async ({ page }) => {
  const upstream = { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } }
  await model.push(
    [error(429, { headers: { 'retry-after': '3' }, body: { error: { message: JSON.stringify(upstream) } } }), streamText('Through after the wait.')],
    { model: 'mock-model' },
  )
  const app = await start(page)
  await app.send('hello')
  await expect(app.status).toContainText('Retrying (attempt 1)')
  await expect(app.status).toContainText('Number of request tokens has exceeded your per-minute rate limit')
  await expect(app.status).not.toContainText('{')
  await expect(app.replies().first()).toContainText('Through after the wait.')
})
