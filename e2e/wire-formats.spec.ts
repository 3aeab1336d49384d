import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_PROVIDERS, type MockProviderType } from './testing/connect-model'
import { History } from './page-models/history'
import { chunk, error, hang, ModelScript, rateLimited, stream, streamText, type RecordedRequest, type WireFormat } from './testing/model-script'

// The loop's scenarios on every wire format the app speaks: the mock server answers each provider type in its own
// format (Chat Completions, OpenAI Responses, Anthropic Messages, Gemini) from the same script.

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

type Body = Record<string, unknown>
type Items = Array<Record<string, unknown>>

/** The tool call ids whose results a request sends back, read the way each format carries them. */
function toolResultIds(format: WireFormat, body: Body): unknown[] {
  switch (format) {
    case 'chat':
      return (body.messages as Items).filter((message) => message.role === 'tool').map((message) => message.tool_call_id)
    case 'responses':
      return (body.input as Items).filter((item) => item.type === 'function_call_output').map((item) => item.call_id)
    case 'messages':
      return (body.messages as Array<{ content: Items | string }>)
        .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
        .filter((part) => part.type === 'tool_result')
        .map((part) => part.tool_use_id)
    case 'gemini':
      return (body.contents as Array<{ parts: Items }>)
        .flatMap((content) => content.parts)
        .flatMap((part) => (part.functionResponse ? [(part.functionResponse as { id?: string }).id] : []))
  }
}

const mainRequests = async (format: WireFormat) =>
  (await model.requests<Body>({ format })).filter((request: RecordedRequest<Body>) => request.model === 'mock-model')

const TYPES: MockProviderType[] = ['openai-compatible', 'openai', 'anthropic', 'google']

for (const type of TYPES) {
  const { format } = MOCK_PROVIDERS[type]

  test.describe(`${type} (${format})`, () => {
    async function ready(page: import('@playwright/test').Page) {
      const app = new Conversation(page)
      await app.start(undefined, { type })
      return app
    }

    test('a multi-step tool turn with reasoning: reasoning, the tool card, the final text; the result goes back', async ({ page }) => {
      const todos = { todos: [{ id: 'spec', content: 'Read the spec', status: 'in_progress', priority: 'high' }] }
      await model.push(
        [
          stream([chunk.reasoning('Planning the work first. ', 5), chunk.toolCall('call_plan', 'todowrite', todos, 7)]),
          streamText('The plan is written down.'),
        ],
        { model: 'mock-model' },
      )
      const app = await ready(page)
      await app.send('Plan it')
      await expect(app.replies().last()).toContainText('The plan is written down.')
      await expect(app.replies().first()).toContainText('Reasoning')
      await expect(app.messages.getByRole('group', { name: /^Tool call: todowrite/ })).toHaveCount(1)
      await expect(page.getByRole('region', { name: 'Todos' })).toContainText('Read the spec')
      const requests = await mainRequests(format)
      expect(requests).toHaveLength(2)
      expect(toolResultIds(format, requests[1]!.body!)).toEqual(['call_plan'])
    })

    test('waits out a 429 with retry-after, then answers', async ({ page }) => {
      await model.push([rateLimited(1), streamText('Made it after the wait.')], { model: 'mock-model' })
      const app = await ready(page)
      await app.send('hello')
      await expect(app.status).toContainText(/Retrying \(attempt 1\) in 1 s/)
      await expect(app.replies().first()).toContainText('Made it after the wait.')
      const requests = await mainRequests(format)
      expect(requests).toHaveLength(2)
      expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(900)
    })

    test('stop cancels mid-stream, keeps the text so far, and the next prompt works', async ({ page }) => {
      await model.push([hang(1, { chunks: [chunk.text('Half an answer ')] })], { model: 'mock-model' })
      const app = await ready(page)
      await app.send('tell me everything')
      await expect(app.replies().first()).toContainText('Half an answer')
      await app.stopButton().click()
      await app.idle()
      await expect.poll(async () => (await mainRequests(format))[0]?.outcome).toBe('client-closed')
      await expect(app.replies().first()).toContainText('Half an answer')

      await model.push([streamText('Fresh start.')], { model: 'mock-model' })
      await app.send('again')
      await expect(app.replies().last()).toContainText('Fresh start.')
    })

    test('shows the scripted tokens and their cost', async ({ page }) => {
      await model.push([streamText('Counted.', { usage: { prompt_tokens: 1_000, completion_tokens: 500 } })], { model: 'mock-model' })
      const app = await ready(page)
      await app.send('count')
      const reply = app.replies().first()
      await expect(reply).toContainText('Counted.')
      // 1,000 in × $2 + 500 out × $8 per million = $0.0060
      await expect(reply).toContainText('1k in · 500 out')
      await expect(reply).toContainText('$0.0060')
    })

    test('a server error inside the stream is retried and the turn completes', async ({ page }) => {
      const broken = chunk.error('The server had an error while processing your request.', { type: 'server_error', code: 'server_error' })
      await model.push([stream([chunk.text('Half an answer '), broken], { finish: null, usage: null }), streamText('The whole answer.')], {
        model: 'mock-model',
      })
      const app = await ready(page)
      await app.send('hello')
      await expect(app.status).toContainText('Retrying (attempt 1)')
      await expect(app.replies().first()).toContainText('The whole answer.')
      await app.idle()
      await expect(page.getByRole('alert')).toHaveCount(0)
      expect(await mainRequests(format)).toHaveLength(2)
    })

    test('an overflow reported inside the stream compacts and the turn continues', async ({ page }) => {
      // Each provider in its own words: OpenAI's formats by the code alone, Anthropic and Gemini by their wording.
      const words: Record<WireFormat, string> = {
        chat: 'Request too long for this model.',
        responses: 'Request too long for this model.',
        messages: 'prompt is too long: 210000 tokens > 200000 maximum',
        gemini: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      }
      const overflow = chunk.error(words[format], { type: 'invalid_request_error', code: 'context_length_exceeded' })
      await model.push(
        [
          streamText('The parser plan is ready.'),
          stream([chunk.text('Starting the '), overflow], { finish: null, usage: null }),
          streamText('Objective: a parser. Done: the plan. Next: the tests.'),
          streamText('Answered after compacting.'),
        ],
        { model: 'mock-model' },
      )
      const app = new History(page)
      await app.start(undefined, { type })
      await app.send('Plan the parser')
      await expect(app.reply('The parser plan is ready.')).toHaveCount(1)
      await app.idle()
      await app.send('Now write the tests')
      await expect(app.reply('Answered after compacting.')).toHaveCount(1)
      await app.idle()
      await expect(app.divider()).toHaveCount(1)
      // The summariser's request is the one without tools, in every format.
      const summariser = (request: RecordedRequest<Body>) => !((request.body?.tools as unknown[] | undefined)?.length ?? 0)
      expect((await mainRequests(format)).map(summariser)).toEqual([false, false, true, false])
    })

    test('a used-up quota stops at once with advice, without retrying', async ({ page }) => {
      const quota = { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } }
      await model.push([error(429, { headers: { 'retry-after': '1' }, body: quota }), streamText('Never sent.')], { model: 'mock-model' })
      const app = await ready(page)
      await app.send('hello')
      const alert = page.getByRole('alert')
      await expect(alert).toContainText('The account has no quota left for this model')
      await expect(alert).toContainText('check your plan and billing at the provider')
      expect(await mainRequests(format)).toHaveLength(1)
    })

    test('counts cached input tokens apart from the rest, at the input price when no cache price is set', async ({ page }) => {
      await model.push(
        [streamText('Counted.', { usage: { prompt_tokens: 1_200, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 1_000 } } })],
        { model: 'mock-model' },
      )
      const app = await ready(page)
      await app.send('count')
      const reply = app.replies().first()
      await expect(reply).toContainText('200 in · 300 out · 1k cache read')
      // (200 + 1,000) in × $2 + 300 out × $8 per million = $0.0048
      await expect(reply).toContainText('$0.0048')
    })
  })
}
