import { expect, test } from './testing/fixtures'
import { History } from './page-models/history'
import { ModelScript, streamText } from './testing/model-script'
import { conversation, isSummariser, requestsOf, textOf } from './testing/requests'

// A session whose history is far larger than its model's context (it was switched to a smaller one): the request
// is estimated before it is sent, the session compacts first, and no request over the limit ever leaves the tab.

const model = new ModelScript()

test.describe.configure({ timeout: 60_000 })

test.beforeEach(async () => {
  await model.reset()
})

// 16,000 tokens with 1,024 for output: 14,976 usable. Each prompt is about 7,500 tokens by opencode's count.
const SMALL_CONTEXT = 16_000
const USABLE = 14_976
const FILLER = 'lexer token grammar parser '.repeat(1_100)
const TURNS = [
  { prompt: `Plan the parser. ${FILLER}`, reply: 'The parser plan is ready.' },
  { prompt: `Add the lexer. ${FILLER}`, reply: 'The lexer is in place.' },
  { prompt: `List the tokens. ${FILLER}`, reply: 'The token list is done.' },
] as const
const LAST_PROMPT = 'Now write the tests'
const SUMMARY = 'Objective: a parser with its own lexer. Done: plan, lexer, token list. Next: write the tests.'

/** A request's size as the estimate counts it: a quarter of the JSON it carries (messages and tools). */
const sizeOf = (body: unknown) => Math.round(JSON.stringify(body).length / 4)

test('a history larger than the model\'s context is compacted before the prompt is sent, and the prompt is answered', async ({ page }) => {
  const app = new History(page)
  await app.start('Parser')
  await model.push([...TURNS.map((turn) => streamText(turn.reply)), streamText(SUMMARY), streamText('Tests coming up.')], { model: 'mock-model' })
  for (const turn of TURNS) {
    await app.send(turn.prompt)
    await expect(app.reply(turn.reply)).toHaveCount(1)
    await app.idle()
  }
  const before = requestsOf(await model.requests()).length
  await app.limitContext(SMALL_CONTEXT)

  await app.send(LAST_PROMPT)
  await expect(app.reply('Tests coming up.')).toHaveCount(1)
  await app.idle()
  await expect(app.divider()).toHaveCount(1)
  await expect(app.divider()).toContainText('Compacted automatically')
  await expect(app.summary()).toContainText(SUMMARY)

  const after = requestsOf(await model.requests()).slice(before)
  // The summariser first (nothing was sent with the whole history), then the prompt, once, after the summary.
  expect(after.map(isSummariser)).toEqual([true, false])
  expect(after.every((request) => request.served?.type === 'stream')).toBe(true)
  for (const request of after) expect(sizeOf(request.body)).toBeLessThan(USABLE)
  // The summariser's own input was cut to fit, and told so.
  const summariser = JSON.stringify(after[0]!.body!.messages)
  expect(summariser).toMatch(/oldest messages of this conversation were left out/)
  expect(summariser).not.toContain('Plan the parser.')
  const replay = conversation(after[1]!)
  expect(replay.map(textOf).join('\n')).toContain(SUMMARY)
  expect(textOf(replay.filter((message) => message.role === 'user').at(-1)!)).toContain(LAST_PROMPT)
  expect(replay.map(textOf).join('\n')).not.toContain('Plan the parser.')
  expect(await model.pending()).toEqual({})
})
