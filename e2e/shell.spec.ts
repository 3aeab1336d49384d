import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

async function terminal(page: Page) {
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Terminal' }).click()
  return panel.getByRole('region', { name: 'Terminal' })
}

const bash = (id: string, command: string, description: string) => toolCalls([{ id, name: 'bash', args: { command, description } }])

test('the offline shell runs a pipeline with awk, jq and a shell function', async ({ page }) => {
  const command =
    'total() { awk -F, \'{ s += $2 } END { print "total", s }\' "$1"; }; total data.csv; ' +
    'jq -r \'.items[] | select(.n > 1) | .name\' items.json | sort | tr a-z A-Z'
  await model.push(
    [
      toolCalls([{ id: 'w1', name: 'write', args: { filePath: 'data.csv', content: 'a,1\nb,2\nc,3\n' } }]),
      toolCalls([{ id: 'w2', name: 'write', args: { filePath: 'items.json', content: '{"items":[{"name":"pear","n":2},{"name":"fig","n":1},{"name":"apple","n":5}]}' } }]),
      bash('b', command, 'Sums and filters'),
      streamText('Summed.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Sum the CSV and list the big items')
  await expect(app.replies().last()).toContainText('Summed.')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('completed')
  await expect(card).toContainText('total 6\nAPPLE\nPEAR')
})

test('a command that exits 127 shows failure with its code, and the terminal shows no <shell_metadata>', async ({ page }) => {
  await model.push([bash('b', 'echo before; frobnicate --now', 'Runs a missing tool'), streamText('It is missing.')], { model: 'mock-model' })
  const app = await Conversation.started(page)
  await app.send('Run the tool')
  await expect(app.replies().last()).toContainText('It is missing.')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('failed · exit 127')
  await expect(card).not.toContainText('completed')
  await expect(card).not.toContainText('shell_metadata')

  const log = await terminal(page)
  await expect(log).toContainText('frobnicate: command not found')
  await expect(log).toContainText('exit 127')
  await expect(log).not.toContainText('shell_metadata')
  // The model still gets the verdict.
  const last = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const result = last.body!.messages.find((message) => message.role === 'tool')
  expect(JSON.stringify(result)).toContain('Command exited with code 127')
})

test('Stop ends a runaway while-true loop within a second', async ({ page }) => {
  await model.push([bash('b', 'while true; do :; done', 'Spins forever')], { model: 'mock-model' })
  const app = await Conversation.started(page)
  await app.send('Spin')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('running')
  await app.stopButton().click()
  await expect(app.stopControl()).toHaveCount(0, { timeout: 1000 })
  await expect(card).not.toContainText('running')
})
