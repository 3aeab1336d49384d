import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText } from './testing/model-script'
import type { AssistantMessage } from '../src/core/schema'
import { formatNumber } from '../src/ui/kit/format/number'
import { formatCost } from '../src/ui/kit/format/usage'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

/** The stored replies of every session, read through the same worker calls the app makes. */
async function storedReplies(page: import('@playwright/test').Page): Promise<AssistantMessage[]> {
  return page.evaluate(async () => {
    const api = window.__tabcode!.api
    const { items: sessions } = await api.listSessions({ limit: 100 })
    const pages = await Promise.all(sessions.map((session) => api.pageMessages({ sessionID: session.id, limit: 1_000 })))
    return pages.flatMap((page) => page.messages.map((entry) => entry.info)).filter((info) => info.role === 'assistant') as AssistantMessage[]
  })
}

test('the usage view sums the stored replies by day and by model, and the model picker shows the price per million', async ({ page }) => {
  await model.push(
    [
      streamText('First answer.', { usage: { prompt_tokens: 1_000, completion_tokens: 200 } }),
      streamText('Second answer.', {
        usage: { prompt_tokens: 5_000, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 4_000 }, completion_tokens_details: { reasoning_tokens: 100 } },
      }),
      streamText('Third answer.', { usage: { prompt_tokens: 2_000, completion_tokens: 50 } }),
    ],
    { model: 'mock-model' },
  )
  await model.push([streamText('Usage check')], { model: 'mock-small' })
  const app = new Conversation(page)
  await app.start(undefined, { prices: { input: 2, output: 8 } })

  // The composer's model choice names each priced model's input and output price per million tokens.
  const picker = page.getByRole('combobox', { name: 'Model', exact: true })
  await expect(picker.getByRole('option', { name: 'Mock server / mock-model · $2 / $8 per M' })).toHaveCount(1)
  // mock-small is priced at nothing both ways: no price is better than a made-up "$0".
  await expect(picker.getByRole('option', { name: 'Mock server / mock-small', exact: true })).toHaveCount(1)

  for (const [index, prompt] of ['One', 'Two', 'Three'].entries()) {
    await app.send(prompt)
    await expect(app.replies().nth(index)).toContainText(['First answer.', 'Second answer.', 'Third answer.'][index]!)
    await app.idle()
  }

  const replies = await storedReplies(page)
  expect(replies).toHaveLength(3)
  const sum = (pick: (reply: AssistantMessage) => number) => replies.reduce((total, reply) => total + pick(reply), 0)
  const expected = [
    String(replies.length),
    formatNumber(sum((reply) => reply.tokens.input)),
    formatNumber(sum((reply) => reply.tokens.output)),
    formatNumber(sum((reply) => reply.tokens.reasoning)),
    formatNumber(sum((reply) => reply.tokens.cache.read)),
    formatNumber(sum((reply) => reply.tokens.cache.write)),
    formatCost(sum((reply) => reply.cost)),
  ]
  // What the script sent, so the sums above are of real numbers: 2,000 + 1,000 + 2,000 input (4,000 read from the
  // cache), 200 + 200 + 50 output and 100 reasoning, at $2 / $8 per million: $0.0204.
  expect(expected).toEqual(['3', '4,000', '450', '100', '4,000', '0', '$0.0204'])

  await page.getByRole('button', { name: 'Usage', exact: true }).click()
  const usage = page.getByRole('dialog', { name: 'Usage' })
  await expect(usage.getByRole('status')).toHaveText('$0.0204 for 3 replies in 1 session.')
  const byDay = usage.getByRole('table', { name: 'Tokens and cost by day' })
  await expect(byDay.getByRole('columnheader')).toHaveText(['Day', 'Replies', 'Input', 'Output', 'Reasoning', 'Cache read', 'Cache write', 'Cost'])
  // One day (today, where the browser is), and its total: both equal to the sum of the stored replies.
  await expect(byDay.getByRole('row')).toHaveCount(3)
  await expect(byDay.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(expected)

  await usage.getByRole('combobox', { name: 'Group by' }).selectOption('models')
  const byModel = usage.getByRole('table', { name: 'Tokens and cost by model' })
  await expect(byModel.getByRole('row', { name: /^Mock server \/ mock-model/ }).getByRole('cell')).toHaveText(expected)

  // One project, and all time: the same replies.
  await usage.getByRole('combobox', { name: 'Period' }).selectOption({ label: 'All time' })
  const project = await page.evaluate(() => window.__tabcode!.projectID)
  await usage.getByRole('combobox', { name: 'Project' }).selectOption(project)
  await expect(byModel.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(expected)

  await usage.getByRole('button', { name: 'Close' }).click()
  await expect(usage).toBeHidden()
})
