import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { History } from './page-models/history'
import { showWorkspace } from './page-models/workbench'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { requestsOf, transcript } from './testing/requests'

// A folder on disk as a project (issue 30). Playwright cannot drive the browser's folder picker, so the page's
// `showDirectoryPicker` is replaced by one returning a folder of the origin-private file system (OPFS), which has the
// same interface as a folder the user picks; the test reads and writes that folder as another program would.

const model = new ModelScript()
const FOLDER = 'app'

test.beforeEach(async () => {
  await model.reset()
})

/** The picker hands out the OPFS folder `app` (the test fills it before picking). */
async function scriptPicker(page: Page) {
  await page.addInitScript((name) => {
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async () => (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true }),
    })
  }, FOLDER)
}

/** Writes files into the OPFS folder, as another editor would. */
async function writeInFolder(page: Page, files: Record<string, string>) {
  await page.evaluate(
    async ({ name, files }) => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true })
      for (const [path, text] of Object.entries(files)) {
        const segments = path.split('/')
        let directory = root
        for (const segment of segments.slice(0, -1)) directory = await directory.getDirectoryHandle(segment, { create: true })
        const writable = await (await directory.getFileHandle(segments.at(-1)!, { create: true })).createWritable()
        await writable.write(text)
        await writable.close()
      }
    },
    { name: FOLDER, files },
  )
}

/** A file of the OPFS folder as it is on disk, or null when there is none. */
async function readInFolder(page: Page, path: string): Promise<string | null> {
  return page.evaluate(
    async ({ name, path }) => {
      try {
        let directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(name)
        const segments = path.split('/')
        for (const segment of segments.slice(0, -1)) directory = await directory.getDirectoryHandle(segment)
        return await (await (await directory.getFileHandle(segments.at(-1)!)).getFile()).text()
      } catch {
        return null
      }
    },
    { name: FOLDER, path },
  )
}

async function chatText(): Promise<string> {
  const requests = requestsOf(await model.requests())
  return transcript(requests.at(-1)!).join('\n')
}

test('a folder opened from disk is the project: edits land in it, outside changes are seen, stale edits refused, revert restores it, a reload reconnects with one click', async ({ page }) => {
  // Three turns, a revert and a reload, on a machine shared with other suites.
  test.slow()
  await scriptPicker(page)
  const app = new History(page)
  await app.start()
  await writeInFolder(page, {
    'a.txt': 'one\n',
    '.gitignore': 'dist/\n',
    'dist/bundle.js': 'built\n',
    'node_modules/left-pad/index.js': 'module.exports = 1\n',
  })

  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByRole('radio', { name: /A folder on disk/ }).check()
  await dialog.getByRole('button', { name: 'Open folder…' }).click()
  await expect(dialog.getByRole('status')).toContainText(`the folder ${FOLDER}`)
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(FOLDER)
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('combobox', { name: 'Project' }).locator('option:checked')).toHaveText(FOLDER)
  const folder = page.getByRole('group', { name: 'Folder on disk' })
  await expect(folder).toContainText(`Works on the folder ${FOLDER} on disk`)
  // Like any project that came from elsewhere, it waits for the user's trust.
  await expect(page.getByRole('group', { name: 'Project trust' })).toContainText('Untrusted')
  await app.newSession()

  // The tree lists the folder without what the project ignores.
  const panel = await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  const tree = panel.getByRole('tree', { name: 'Files' })
  await expect(tree.getByRole('treeitem', { name: /a\.txt/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /\.gitignore/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /dist|node_modules/ })).toHaveCount(0)

  // The agent's edit is in the folder.
  await model.push(
    [
      toolCalls([{ id: 'r1', name: 'read', args: { filePath: 'a.txt' } }]),
      toolCalls([{ id: 'e1', name: 'edit', args: { filePath: 'a.txt', oldString: 'one', newString: 'agent' } }]),
      streamText('Edited a.txt.'),
    ],
    { model: 'mock-model' },
  )
  await app.send('Edit a.txt')
  await expect(app.reply('Edited a.txt.')).toHaveCount(1)
  expect(await readInFolder(page, 'a.txt')).toBe('agent\n')

  // Another editor changes a.txt and adds a file: the next step sees them, and the agent's stale edit is refused.
  await writeInFolder(page, { 'a.txt': 'by hand\n', 'notes/outside.md': '# written outside\n' })
  await model.push(
    [
      toolCalls([{ id: 'e2', name: 'edit', args: { filePath: 'a.txt', oldString: 'by hand', newString: 'overwritten' } }]),
      toolCalls([{ id: 'g2', name: 'glob', args: { pattern: '**/*.md' } }]),
      streamText('Saw the outside change.'),
    ],
    { model: 'mock-model' },
  )
  await app.send('Edit it again')
  await expect(app.reply('Saw the outside change.')).toHaveCount(1)
  const seen = await chatText()
  expect(seen).toContain('has been modified since it was last read')
  expect(seen).toContain('notes/outside.md')
  expect(await readInFolder(page, 'a.txt')).toBe('by hand\n')
  await expect(tree.getByRole('treeitem', { name: /notes/ })).toBeVisible()
  // Changes shows them apart, as changed outside.
  await panel.getByRole('tab', { name: 'Changes' }).click()
  const outside = panel.getByRole('group', { name: 'Files changed outside tabcode' })
  await expect(outside).toContainText('a.txt')
  await expect(outside).toContainText('+by hand')
  await expect(outside).toContainText('notes/outside.md')
  await panel.getByRole('tab', { name: 'Files' }).click()

  // Reverting the first turn's files writes the folder back.
  await app.revert(app.userMessage('Edit a.txt'), 'Revert conversation and files')
  await expect.poll(() => readInFolder(page, 'a.txt')).toBe('one\n')

  // After a reload the app holds only the handle: the project's files wait for one click.
  await page.reload()
  await app.ready()
  await expect(folder.getByRole('button', { name: `Reconnect to ${FOLDER}` })).toBeVisible()
  const reopened = await showWorkspace(page)
  await reopened.getByRole('tab', { name: 'Files' }).click()
  await expect(reopened).toContainText(`The folder ${FOLDER} is not connected in this tab`)
  await folder.getByRole('button', { name: `Reconnect to ${FOLDER}` }).click()
  await expect(folder).toContainText(`Works on the folder ${FOLDER} on disk`)
  await expect(reopened.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: /a\.txt/ })).toBeVisible()
  expect(await app.fileText('a.txt')).toBe('one\n')
})

test('where the browser cannot open a folder on disk, the dialog says so and offers the copy instead', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker
    delete (Window.prototype as { showDirectoryPicker?: unknown }).showDirectoryPicker
  })
  const app = new History(page)
  await app.open()
  await app.ready()
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByRole('radio', { name: /A folder on disk/ }).check()
  const note = dialog.getByRole('note')
  await expect(note).toContainText('This browser cannot let tabcode work on a folder on disk')
  await expect(note).toContainText('Download zip')
  await expect(dialog.getByRole('button', { name: 'Open folder…' })).toHaveCount(0)
  await note.getByRole('button', { name: 'Import a folder as a copy' }).click()
  await expect(dialog.getByRole('radio', { name: 'A folder', exact: true })).toBeChecked()
  await expect(dialog.getByLabel('Folder', { exact: true })).toBeVisible()
})
