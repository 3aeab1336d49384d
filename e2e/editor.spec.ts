import type { Locator, Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

async function showFiles(page: Page): Promise<Locator> {
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await expect(panel).toBeVisible()
  await panel.getByRole('tab', { name: 'Files', exact: true }).click()
  return panel
}

/** Opens `name` from the tree's top level and answers its editor (CodeMirror's content, a textbox). */
async function openFile(panel: Locator, name: string): Promise<Locator> {
  await panel.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: new RegExp(name.replace('.', '\\.')) }).click()
  const editor = panel.getByRole('textbox', { name: `Edit ${name}` })
  await expect(editor).toBeVisible()
  return editor
}

/** The model writes app.js in a first turn: the file exists, and the model has seen it. */
async function withWrittenFile(page: Page, content: string): Promise<Conversation> {
  await model.push([toolCalls([{ id: 'w', name: 'write', args: { filePath: 'app.js', content } }]), streamText('Wrote app.js.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.send('Write app.js')
  await expect(app.replies().last()).toContainText('Wrote app.js.')
  return app
}

test("a saved edit is the user's change: the model's edit applies on it, and after a reload Changes shows both", async ({ page }) => {
  const app = await withWrittenFile(page, 'let a = 1\n')
  let panel = await showFiles(page)
  let editor = await openFile(panel, 'app.js')
  await expect(editor).toHaveText('let a = 1')
  await editor.click()
  await editor.press('Control+End')
  await page.keyboard.type('let b = 2')
  const tab = panel.getByRole('tab', { name: 'app.js, unsaved' })
  await expect(tab).toBeVisible()
  await editor.press('Control+s')
  await expect(panel.getByRole('tab', { name: 'app.js', exact: true })).toBeVisible()
  await expect(panel.getByRole('status').filter({ hasText: 'Saved app.js' })).toBeVisible()

  // The model read app.js before the save (it wrote it): its edit is refused until it reads the user's version.
  await model.push(
    [
      toolCalls([{ id: 'e1', name: 'edit', args: { filePath: 'app.js', oldString: 'let b = 2', newString: 'let b = 3' } }]),
      toolCalls([{ id: 'r', name: 'read', args: { filePath: 'app.js' } }]),
      toolCalls([{ id: 'e2', name: 'edit', args: { filePath: 'app.js', oldString: 'let b = 2', newString: 'let b = 3' } }]),
      streamText('Changed b to 3.'),
    ],
    { model: 'mock-model' },
  )
  await app.send('Make b 3')
  await expect(app.replies().last()).toContainText('Changed b to 3.')
  await expect(app.messages).toContainText('has been modified since it was last read')
  // The open editor had no unsaved edits: it follows the file.
  await expect(editor).toContainText('let a = 1let b = 3')

  // Both changes are stored: after a reload the file has both, and Changes shows whose each is.
  await page.reload()
  await app.ready()
  panel = await showFiles(page)
  editor = await openFile(panel, 'app.js')
  await expect(editor).toContainText('let a = 1let b = 3')
  await panel.getByRole('tab', { name: 'Changes', exact: true }).click()
  const yours = panel.getByRole('group', { name: 'Your edits in this session' })
  await expect(yours).toContainText('app.js')
  await expect(yours).toContainText('+let b = 2')
  await expect(panel.getByRole('group', { name: 'Changes in this session' })).toContainText('+let b = 3')
  // The agent's own change is its turn's: from the user's version.
  const scope = panel.getByRole('combobox', { name: 'Show changes of' })
  await scope.selectOption((await scope.getByRole('option', { name: /Make b 3/ }).getAttribute('value'))!)
  const turn = panel.getByRole('group', { name: 'Changes in this turn' })
  await expect(turn).toContainText('-let b = 2')
  await expect(turn).toContainText('+let b = 3')
  await expect(turn).not.toContainText('+let a = 1')
})

test('an agent write over unsaved edits offers keep mine, take theirs and the diff; nothing is lost', async ({ page }) => {
  const app = await withWrittenFile(page, 'base\n')
  const panel = await showFiles(page)
  const editor = await openFile(panel, 'app.js')
  const type = async (text: string) => {
    await editor.click()
    await editor.press('Control+End')
    await page.keyboard.type(text)
  }
  const agentWrites = async (content: string, reply: string) => {
    await model.push([toolCalls([{ id: `w-${reply}`, name: 'write', args: { filePath: 'app.js', content } }]), streamText(reply)], { model: 'mock-model' })
    await app.send('Rewrite app.js')
    await expect(app.replies().last()).toContainText(reply)
  }

  await type('mine')
  await agentWrites('base\ntheirs\n', 'First rewrite.')
  const conflict = panel.getByRole('alert').filter({ hasText: 'changed on disk while you had unsaved edits' })
  await expect(conflict).toBeVisible()
  await expect(editor).toContainText('basemine')

  await conflict.getByRole('button', { name: 'Show diff' }).click()
  const diff = conflict.getByRole('group', { name: 'Your version of app.js against the one on disk' })
  await expect(diff).toContainText('-theirs')
  await expect(diff).toContainText('+mine')

  await conflict.getByRole('button', { name: 'Take theirs' }).click()
  await expect(conflict).toBeHidden()
  await expect(editor).toContainText('basetheirs')
  await expect(panel.getByRole('tab', { name: 'app.js', exact: true })).toBeVisible()

  await type(' and mine')
  await agentWrites('second agent version\n', 'Second rewrite.')
  await expect(conflict).toBeVisible()
  await conflict.getByRole('button', { name: 'Keep mine' }).click()
  await expect(conflict).toBeHidden()
  await expect(panel.getByRole('tab', { name: 'app.js', exact: true })).toBeVisible()
  const onDisk = await page.evaluate(async () => {
    const hook = window.__tabcode!
    const file = await hook.api.readFile({ projectID: hook.projectID, path: 'app.js' })
    return file.type === 'text' ? file.text : null
  })
  expect(onDisk).toBe('base\ntheirs\n and mine')
})
