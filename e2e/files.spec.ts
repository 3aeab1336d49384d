import type { Locator, Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { unzipSync } from 'fflate'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

async function showFiles(page: Page): Promise<Locator> {
  await new Conversation(page).start()
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await expect(panel).toBeVisible()
  await panel.getByRole('tab', { name: 'Files', exact: true }).click()
  return panel
}

const notice = (panel: Locator) => panel.getByRole('status', { name: 'Files notice' })
const row = (panel: Locator, name: string) => panel.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name, exact: true })

/** Drops files from "the OS" onto `target`, as a synthetic drop event carrying them. */
async function dropFiles(page: Page, target: Locator, files: Record<string, string>): Promise<void> {
  const dataTransfer = await page.evaluateHandle((entries) => {
    const transfer = new DataTransfer()
    for (const [name, text] of Object.entries(entries)) transfer.items.add(new File([text], name, { type: 'text/plain' }))
    return transfer
  }, files)
  await target.dispatchEvent('drop', { dataTransfer })
}

async function create(panel: Locator, kind: 'file' | 'folder', name: string): Promise<void> {
  await panel.getByRole('button', { name: kind === 'file' ? 'New file' : 'New folder', exact: true }).click()
  const field = panel.getByRole('textbox', { name: new RegExp(`^New ${kind} name in `) })
  await field.fill(name)
  await field.press('Enter')
  await expect(row(panel, name)).toBeVisible()
}

test('create, refuse bad names, rename, upload, move by menu and by drag, delete and undo', async ({ page }) => {
  const panel = await showFiles(page)
  await create(panel, 'file', 'notes.txt')
  // A new file opens in the editor.
  await expect(panel.getByRole('textbox', { name: 'Edit notes.txt' })).toBeVisible()

  await panel.getByRole('button', { name: 'New file', exact: true }).click()
  const field = panel.getByRole('textbox', { name: 'New file name in the project' })
  await field.fill('../escape')
  await field.press('Enter')
  await expect(panel.getByRole('alert')).toHaveText('A name cannot contain "/" or "\\": create the folder first.')
  await field.fill('NOTES.txt')
  await field.press('Enter')
  await expect(panel.getByRole('alert')).toHaveText('"NOTES.txt" already exists here.')
  await field.fill('')
  await field.press('Enter')
  await expect(panel.getByRole('alert')).toHaveText('A name is needed.')
  await field.press('Escape')
  await expect(field).toBeHidden()

  await create(panel, 'folder', 'docs')

  // Rename with F2 on the focused row.
  await row(panel, 'notes.txt').focus()
  await page.keyboard.press('F2')
  const rename = panel.getByRole('textbox', { name: 'Rename notes.txt' })
  await rename.fill('readme.md')
  await rename.press('Enter')
  await expect(row(panel, 'readme.md')).toBeFocused()
  await expect(row(panel, 'notes.txt')).toBeHidden()

  // Files dropped from the OS onto the tree land at the top level.
  await dropFiles(page, panel.getByRole('tree', { name: 'Files' }), { 'hello.txt': 'hello from disk\n' })
  await expect(notice(panel).filter({ hasText: 'Uploaded 1 file to .' })).toBeVisible()
  await expect(row(panel, 'hello.txt')).toBeVisible()

  // Move by keyboard: the row's menu (Shift+F10), "Move to…", a folder path.
  await row(panel, 'hello.txt').focus()
  await page.keyboard.press('Shift+F10')
  const menu = page.getByRole('menu', { name: 'Actions for hello.txt' })
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused()
  await menu.getByRole('menuitem', { name: 'Move to…' }).click()
  const moveTo = panel.getByRole('textbox', { name: 'Move hello.txt to folder' })
  await moveTo.fill('docs')
  await moveTo.press('Enter')
  await expect(panel.getByRole('treeitem', { name: 'hello.txt' })).toHaveAttribute('aria-level', '2')

  // Move by dragging a row onto a folder.
  await row(panel, 'readme.md').dragTo(row(panel, 'docs'))
  await expect(panel.getByRole('treeitem', { name: 'readme.md' })).toHaveAttribute('aria-level', '2')

  // Delete the folder with the Delete key, then Undo from the notice: its files come back with their contents.
  await row(panel, 'docs').focus()
  await page.keyboard.press('Delete')
  await expect(notice(panel)).toContainText('Deleted docs (2 files)')
  await expect(row(panel, 'docs')).toBeHidden()
  await panel.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(notice(panel)).toContainText('Restored docs')
  await expect(row(panel, 'docs')).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await row(panel, 'hello.txt').click()
  await expect(panel.getByRole('textbox', { name: 'Edit docs/hello.txt' })).toHaveText('hello from disk')

  // Delete from the right-click menu, then Ctrl+Z in the tree after dismissing the notice.
  await row(panel, 'readme.md').click({ button: 'right' })
  await page.getByRole('menu', { name: 'Actions for docs/readme.md' }).getByRole('menuitem', { name: 'Delete' }).click()
  await expect(notice(panel)).toContainText('Deleted docs/readme.md')
  await panel.getByRole('button', { name: 'Dismiss' }).click()
  await row(panel, 'docs').focus()
  await page.keyboard.press('Control+z')
  await expect(row(panel, 'readme.md')).toBeFocused()
})

test('a file downloads from its menu, and the whole project as a zip', async ({ page }) => {
  const panel = await showFiles(page)
  await create(panel, 'folder', 'src')
  await dropFiles(page, row(panel, 'src'), { 'main.js': 'console.log(1)\n' })
  await expect(row(panel, 'main.js')).toBeVisible()
  await expect(row(panel, 'main.js')).toHaveAttribute('aria-level', '2')

  await row(panel, 'main.js').click({ button: 'right' })
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menu', { name: 'Actions for src/main.js' }).getByRole('menuitem', { name: 'Download' }).click(),
  ])
  expect(file.suggestedFilename()).toBe('main.js')
  expect(await readFile((await file.path())!, 'utf8')).toBe('console.log(1)\n')

  const [zip] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download zip' }).click()])
  expect(zip.suggestedFilename()).toMatch(/\.zip$/)
  const entries = unzipSync(new Uint8Array(await readFile((await zip.path())!)))
  expect(Object.keys(entries).sort()).toEqual(['src/', 'src/main.js'])
  expect(new TextDecoder().decode(entries['src/main.js'])).toBe('console.log(1)\n')

  const shots = process.env.TABCODE_SHOTS
  if (shots) {
    await create(panel, 'file', 'index.html')
    await row(panel, 'index.html').focus()
    await page.keyboard.press('Delete')
    await expect(notice(panel)).toContainText('Deleted src/index.html')
    await row(panel, 'src').focus()
    await page.keyboard.press('F2')
    await panel.getByRole('textbox', { name: 'Rename src' }).fill('src/x')
    await panel.getByRole('textbox', { name: 'Rename src' }).press('Enter')
    await expect(panel.getByRole('alert')).toBeVisible()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: `${shots}-${scheme}-edit.png` })
    }
    await panel.getByRole('textbox', { name: 'Rename src' }).press('Escape')
    await row(panel, 'main.js').click({ button: 'right' })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: `${shots}-${scheme}.png` })
    }
  }
})
