import { expect, test } from './testing/fixtures'
import { History } from './page-models/history'
import { chunk, hang, ModelScript, streamText } from './testing/model-script'
import { requestsOf, userTexts } from './testing/requests'

// Code blocks in replies and the turn actions (issue 17, point 5): highlighted, copyable code; Copy, Edit and resend,
// Regenerate and Continue on messages, through the scripted model server and the real clipboard.

const model = new ModelScript()

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })
test.describe.configure({ timeout: 60_000 })

test.beforeEach(async () => {
  await model.reset()
})

const CODE = 'export function add(a: number, b: number): number {\n  return a + b // the sum\n}'
const REPLY = `Here is the function:\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nCall it with two numbers.`

const clipboard = (app: History) => app.page.evaluate(() => navigator.clipboard.readText())

async function chats() {
  return requestsOf(await model.requests())
}

test('a ts code block is highlighted, and Copy code puts exactly its code on the clipboard', async ({ page }) => {
  await model.push([streamText(REPLY)], { model: 'mock-model' })
  const app = new History(page)
  await app.start('Code')
  await app.send('Write add')
  const reply = app.reply('Call it with two numbers.')
  await expect(reply).toHaveCount(1)
  const code = reply.locator('pre code')
  await expect(code.locator('.tok-keyword').first()).toHaveText('export')
  await expect(code.locator('.tok-comment')).toHaveText('// the sum')
  await expect(code).toHaveText(CODE)

  await reply.getByRole('button', { name: 'Copy code' }).click()
  await expect(reply.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await clipboard(app)).toBe(CODE)
  await expect(reply.getByRole('button', { name: 'Copy code' })).toBeVisible()
})

test('Copy on a message puts its text, as markdown, on the clipboard', async ({ page }) => {
  await model.push([streamText(REPLY)], { model: 'mock-model' })
  const app = new History(page)
  await app.start('Copy')
  await app.send('Write **add**')
  await expect(app.reply('Call it with two numbers.')).toHaveCount(1)
  await app.idle()
  await app.messageAction(app.reply('Call it with two numbers.'), 'Copy')
  await expect.poll(() => clipboard(app)).toBe(REPLY)
  await app.messageAction(app.prompts().filter({ hasText: 'Write' }), 'Copy')
  await expect.poll(() => clipboard(app)).toBe('Write **add**')
})

test('Edit and resend replaces the turn: the old prompt and reply go, the edited prompt gets a new reply', async ({ page }) => {
  await model.push([streamText('First answer.'), streamText('Answer to the edit.')], { model: 'mock-model' })
  const app = new History(page)
  await app.start('Edit')
  await app.send('Add a lexer')
  await expect(app.reply('First answer.')).toHaveCount(1)
  await app.idle()

  await app.messageAction(app.prompts().filter({ hasText: 'Add a lexer' }), 'Edit and resend')
  const editor = page.getByRole('textbox', { name: 'Edit prompt' })
  await expect(editor).toBeFocused()
  await expect(editor).toHaveValue('Add a lexer')
  // Escape leaves it as it was.
  await editor.press('Escape')
  await expect(editor).toHaveCount(0)
  await expect(app.prompts().filter({ hasText: 'Add a lexer' })).toHaveCount(1)

  await app.messageAction(app.prompts().filter({ hasText: 'Add a lexer' }), 'Edit and resend')
  await editor.fill('Add a parser instead')
  await editor.press('Enter')
  await expect(app.reply('Answer to the edit.')).toHaveCount(1)
  await app.idle()
  await expect(app.prompts()).toHaveText([/Add a parser instead/])
  await expect(app.reply('First answer.')).toHaveCount(0)
  const requests = await chats()
  expect(requests).toHaveLength(2)
  expect(userTexts(requests[1]!)).toEqual(['Add a parser instead'])
})

test('Regenerate on the last reply asks the same prompt again and shows the new reply in place of the old', async ({ page }) => {
  await model.push([streamText('One answer.'), streamText('Another answer.')], { model: 'mock-model' })
  const app = new History(page)
  await app.start('Regenerate')
  await app.send('Name a colour')
  await expect(app.reply('One answer.')).toHaveCount(1)
  await app.idle()

  await app.messageAction(app.reply('One answer.'), 'Regenerate')
  await expect(app.reply('Another answer.')).toHaveCount(1)
  await app.idle()
  await expect(app.reply('One answer.')).toHaveCount(0)
  await expect(app.prompts()).toHaveText([/Name a colour/])
  const requests = await chats()
  expect(requests).toHaveLength(2)
  expect(userTexts(requests[1]!)).toEqual(['Name a colour'])
})

test('Continue after a Stop asks the model to go on, and its reply follows', async ({ page }) => {
  await model.push([hang(1, { chunks: [chunk.text('The first half ')] }), streamText('and the second half.')], {
    model: 'mock-model',
  })
  const app = new History(page)
  await app.start('Continue')
  await app.send('Tell a long story')
  await expect(app.reply('The first half')).toHaveCount(1)
  await app.stopButton().click()
  await app.idle()

  const resume = page.getByRole('button', { name: 'Continue', exact: true })
  await expect(resume).toHaveCount(1)
  await resume.focus()
  await page.keyboard.press('Enter')
  await expect(app.reply('and the second half.')).toHaveCount(1)
  await app.idle()
  await expect(resume).toHaveCount(0)
  const requests = await chats()
  expect(requests).toHaveLength(2)
  expect(userTexts(requests[1]!).at(-1)).toMatch(/^Continue/)
  // The stopped reply stays, so the model sees what it had written.
  await expect(app.reply('The first half')).toHaveCount(1)
})
