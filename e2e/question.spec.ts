import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { conversation, requestsOf, textOf } from './testing/requests'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const COLOUR = {
  questions: [
    {
      question: 'Which colour should the button be?',
      header: 'Colour',
      options: [
        { label: 'Blue', description: 'Matches the header' },
        { label: 'Green', description: 'Reads as success' },
      ],
    },
  ],
}

const questionDialog = (page: Page) => page.getByRole('dialog', { name: 'The agent asks' })
const card = (app: Conversation) => app.messages.getByRole('group', { name: 'Tool call: question' })

/** The tool result the model got back for the question call, from the request after it. */
async function toolResult(): Promise<string> {
  const requests = requestsOf(await model.waitForRequests(2))
  const tool = conversation(requests[1]!).find((message) => message.role === 'tool')
  return tool ? textOf(tool) : ''
}

async function askColour(page: Page, title: string) {
  await model.push([toolCalls([{ id: 'call_q', name: 'question', args: COLOUR }]), streamText('Going with your colour.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start(title)
  await app.send('Style the button')
  await expect(questionDialog(page)).toBeVisible()
  return app
}

test('the model asks with options; the picked one goes back to it and it carries on', async ({ page }) => {
  const app = await askColour(page, 'Pick one')
  const dialog = questionDialog(page)
  await expect(dialog.getByRole('radio', { name: 'Blue' })).toHaveAccessibleDescription('Matches the header')
  await expect(card(app)).toContainText('Waiting for an answer')
  // Keyboard only: the first option has the focus, an arrow moves to the next, Enter submits.
  await expect(dialog.getByRole('radio', { name: 'Blue' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(dialog.getByRole('radio', { name: 'Green' })).toBeChecked()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  expect(await toolResult()).toContain('User has answered your questions: "Which colour should the button be?"="Green"')
  await expect(app.replies().last()).toContainText('Going with your colour.')
  await expect(card(app).getByRole('definition')).toHaveText('Green')
})

test('a typed answer replaces the options', async ({ page }) => {
  const app = await askColour(page, 'Typed')
  const dialog = questionDialog(page)
  await dialog.getByRole('textbox', { name: 'Type your own answer' }).fill('Purple, like the logo')
  await dialog.getByRole('button', { name: 'Submit' }).click()
  expect(await toolResult()).toContain('"Which colour should the button be?"="Purple, like the logo"')
  await expect(app.replies().last()).toContainText('Going with your colour.')
})

test('answered from a second tab: the first tab’s dialog closes and the turn goes on', async ({ context }) => {
  const first = await askColour(await context.newPage(), 'Two tabs')
  const second = new Conversation(await context.newPage())
  await second.open()
  await second.sessionLink(/^Two tabs/).click()
  const dialog = questionDialog(second.page)
  await dialog.getByRole('radio', { name: 'Blue' }).check()
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(questionDialog(first.page)).toHaveCount(0)
  expect(await toolResult()).toContain('="Blue"')
  await expect(first.replies().last()).toContainText('Going with your colour.')
})

test('Stop while a question waits closes it, ends the turn, and the prompt works again', async ({ page }) => {
  const app = await askColour(page, 'Stopped')
  // The dialog is not modal: Stop is still there to press.
  await app.stopButton().click()
  await expect(questionDialog(page)).toHaveCount(0)
  await app.idle()
  await expect(card(app)).toContainText('error')
  await model.reset()
  await model.push([streamText('Fine, no button then.')], { model: 'mock-model' })
  await app.send('never mind')
  await expect(app.replies().last()).toContainText('Fine, no button then.')
})

test('Esc in the dialog dismisses the question and the turn stops', async ({ page }) => {
  const app = await askColour(page, 'Dismissed')
  await page.keyboard.press('Escape')
  await expect(questionDialog(page)).toHaveCount(0)
  await app.idle()
  await expect(card(app)).toContainText('The user dismissed this question')
  // Only the call that asked: the turn ended after that step.
  expect(requestsOf(await model.requests())).toHaveLength(1)
})
