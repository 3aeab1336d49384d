import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

test('the header shows how full the context was at the last reply, and what compaction will do', async ({ page }) => {
  // mock-model has a 100k window and a 4,096-token output limit: compaction starts at 95,904.
  await model.push([streamText('First answer.', { usage: { prompt_tokens: 30_000, completion_tokens: 2_000 } })], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Measured')
  await expect(app.main.getByRole('meter', { name: 'Context' })).toHaveCount(0)
  await app.send('Hello')
  await expect(app.replies().first()).toContainText('First answer.')
  const meter = app.main.getByRole('meter', { name: 'Context' })
  await expect(meter).toHaveAttribute('aria-valuetext', '32k of 100k tokens')
  await expect(app.main.locator('header.session-header')).toContainText('32k of 100k')
  const explain = app.main.getByRole('button', { name: 'What happens when it fills?' })
  await explain.click()
  await expect(explain).toHaveAttribute('aria-expanded', 'true')
  await expect(app.main.getByText(/^Compacts automatically at 96k/)).toBeVisible()
})
