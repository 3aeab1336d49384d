import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const card = (app: Conversation, tool: string) => app.messages.getByRole('group', { name: `Tool call: ${tool}` })

test('edit, write, read and bash cards show the diff, the file and how the command ended', async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 'w', name: 'write', args: { filePath: 'src/price.ts', content: 'export const price = 10\nexport const tax = 2\n' } }]),
      toolCalls([{ id: 'e', name: 'edit', args: { filePath: 'src/price.ts', oldString: 'price = 10', newString: 'price = 12' } }]),
      toolCalls([{ id: 'r', name: 'read', args: { filePath: 'src/price.ts' } }]),
      toolCalls([{ id: 'b', name: 'bash', args: { command: 'echo checking; exit 3', description: 'Check the price' } }]),
      streamText('The price is now 12.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Raise the price')
  await expect(app.replies().last()).toContainText('The price is now 12.')

  // The write card: the new file as additions, counted.
  const write = card(app, 'write')
  const writeDiff = write.locator('details.tool-diff')
  await expect(writeDiff.locator('summary')).toContainText('+2 −0')
  await expect(writeDiff.locator('summary')).toContainText('2 additions, 0 deletions')
  await expect(writeDiff.locator('.diff-line-added')).toHaveText(['+export const price = 10', '+export const tax = 2'])
  await expect(writeDiff.locator('.diff-line-removed')).toHaveCount(0)

  // The edit card: the diff with counts, no escaped JSON, and the changed words marked in the paired lines.
  const edit = card(app, 'edit')
  const editDiff = edit.locator('details.tool-diff')
  await expect(editDiff.locator('summary')).toContainText('+1 −1')
  await expect(editDiff.locator('.diff-line-removed')).toHaveText('-export const price = 10')
  await expect(editDiff.locator('.diff-line-added')).toHaveText('+export const price = 12')
  await expect(editDiff.locator('.diff-line-removed mark')).toHaveText('10')
  await expect(editDiff.locator('.diff-line-added mark')).toHaveText('12')
  await expect(editDiff.locator('.diff-line-context')).toContainText([' export const tax = 2'])
  await expect(edit).not.toContainText('\\n')
  // Highlighted: the keyword carries a syntax class once the highlighter has loaded.
  await expect(editDiff.locator('.diff-line-added .tok-keyword').first()).toHaveText('export')

  // Collapses and expands from the keyboard.
  const summary = editDiff.locator('summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  await expect(editDiff.locator('.diff-line-added')).toBeHidden()
  await page.keyboard.press('Space')
  await expect(editDiff.locator('.diff-line-added')).toBeVisible()

  // The read card: the file's lines, numbered as the tool returned them, highlighted.
  const read = card(app, 'read')
  await read.locator('summary', { hasText: 'Content' }).click()
  await expect(read.locator('.read-line')).toHaveText(['1export const price = 12', '2export const tax = 2'])
  await expect(read.locator('.read-text .tok-keyword').first()).toHaveText('export')
  await expect(read).toContainText('End of file - total 2 lines')

  // The bash card: the command, the exit code and a failure line.
  const bash = card(app, 'bash')
  await expect(bash.locator('.tool-command pre')).toHaveText('$ echo checking; exit 3')
  await expect(bash).toContainText('failed · exit 3')
  await expect(bash.getByText('Failed with exit code 3')).toBeVisible()
})

test('a long diff stays collapsed to its head until asked for in full', async ({ page }) => {
  const content = Array.from({ length: 120 }, (_, index) => `line ${index + 1}`).join('\n') + '\n'
  await model.push(
    [toolCalls([{ id: 'w', name: 'write', args: { filePath: 'notes.txt', content } }]), streamText('Wrote the notes.')],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Write the notes')
  await expect(app.replies().last()).toContainText('Wrote the notes.')
  const diff = card(app, 'write').locator('details.tool-diff')
  await expect(diff.locator('summary')).toContainText('+120 −0')
  await expect(diff.locator('.diff-line')).toHaveCount(40)
  const showAll = diff.getByRole('button', { name: 'Show all 121 lines' })
  await showAll.focus()
  await page.keyboard.press('Enter')
  await expect(diff.locator('.diff-line')).toHaveCount(121)
  await expect(diff.locator('.diff-line').last()).toHaveText('+line 120')
})

test('a finished command shows how its output ends, open, without expanding anything', async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 'long', name: 'bash', args: { command: "seq 1 40; printf 'Ran 40 tests in 0.2s\\n\\nFAILED (failures=3)\\n'; exit 1", description: 'Run the tests' } }]),
      toolCalls([{ id: 'short', name: 'bash', args: { command: "printf 'Ran 2 tests\\nOK\\n'", description: 'Run two tests' } }]),
      streamText('Three tests fail.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Run the tests')
  await expect(app.replies().last()).toContainText('Three tests fail.')

  // A long output: its last ten lines, the verdict among them, with how many lines are above; the head is not shown.
  const [long, short] = [card(app, 'bash').first(), card(app, 'bash').last()]
  const ending = long.getByRole('figure', { name: 'End of the output' })
  await expect(ending).toBeVisible()
  await expect(ending.locator('pre')).toHaveText('34\n35\n36\n37\n38\n39\n40\nRan 40 tests in 0.2s\n\nFAILED (failures=3)')
  await expect(ending).toContainText('33 lines above (all of it under Output)')
  await expect(long.getByText('Failed with exit code 1')).toBeVisible()
  // The whole output is still one click away.
  await long.locator('summary', { hasText: 'Output' }).click()
  await expect(long.locator('.long-text pre')).toContainText('1\n2\n3\n')

  // A short output is shown whole.
  const whole = short.getByRole('figure', { name: 'End of the output' })
  await expect(whole.locator('pre')).toHaveText('Ran 2 tests\nOK')
  await expect(whole).not.toContainText('above')
})
