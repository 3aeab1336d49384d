import { strToU8, zipSync } from 'fflate'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { showWorkspace } from './page-models/workbench'

test('a new project from a zip archive has its own files and sessions; switching back restores the first', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  await app.newSession()
  const project = page.getByRole('combobox', { name: 'Project' })
  const first = await project.inputValue()

  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill('Landing page')
  await dialog.getByRole('radio', { name: 'A zip archive' }).check()
  const zip = zipSync({ 'site/index.html': strToU8('<h1>Welcome</h1>\n'), 'site/css/style.css': strToU8('h1 { color: teal }\n') })
  await dialog.getByLabel('Zip file', { exact: true }).setInputFiles({ name: 'site.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) })
  await expect(dialog.getByRole('status')).toContainText('site.zip')
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog).toBeHidden()
  await expect(project.locator('option:checked')).toHaveText('Landing page')
  // A fresh project has no sessions yet.
  await expect(app.sessionLinks()).toHaveCount(0)

  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  const tree = panel.getByRole('tree', { name: 'Files' })
  await expect(tree.getByRole('treeitem', { name: /index\.html/ })).toBeVisible()
  await tree.getByRole('treeitem', { name: /css/ }).click()
  await expect(tree.getByRole('treeitem', { name: /style\.css/ })).toBeVisible()

  // The choice survives a reload, and the first project is one switch away with its session.
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Project' }).locator('option:checked')).toHaveText('Landing page')
  await page.getByRole('combobox', { name: 'Project' }).selectOption(first)
  await expect(app.sessionLinks()).toHaveCount(1)
})

test('a broken archive is refused with a clear error and creates nothing', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill('Broken')
  await dialog.getByRole('radio', { name: 'A zip archive' }).check()
  await dialog.getByLabel('Zip file', { exact: true }).setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all') })
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog.getByRole('alert')).toContainText('not a readable zip archive')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('combobox', { name: 'Project' }).locator('option')).toHaveCount(1)
})

test('a zip with node_modules and a built folder is imported without them, and the sidebar says what was left out', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill('With dependencies')
  await dialog.getByRole('radio', { name: 'A zip archive' }).check()
  const zip = zipSync({
    'app/.gitignore': strToU8('dist/\n'),
    'app/index.js': strToU8('console.log(1)\n'),
    'app/node_modules/left-pad/index.js': strToU8('module.exports = 1\n'),
    'app/node_modules/left-pad/package.json': strToU8('{}\n'),
    'app/dist/bundle.js': strToU8('1\n'),
  })
  await dialog.getByLabel('Zip file', { exact: true }).setInputFiles({ name: 'app.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) })
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog).toBeHidden()
  const note = page.getByRole('status').filter({ hasText: 'Left out' })
  await expect(note).toContainText('Left out 3 files in dist and node_modules')

  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  const tree = panel.getByRole('tree', { name: 'Files' })
  await expect(tree.getByRole('treeitem', { name: /index\.js/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /\.gitignore/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /node_modules|dist/ })).toHaveCount(0)
  await note.getByRole('button', { name: 'Dismiss' }).click()
  await expect(note).toHaveCount(0)
})

test('Back returns across a switch of project to the session open before it, and Forward switches again', async ({ page }) => {
  const app = new Conversation(page)
  await app.open()
  await app.ready()
  await app.newSession()
  await app.rename(/New session · /, 'Home work')
  const project = page.getByRole('combobox', { name: 'Project' })
  const home = await project.locator('option:checked').textContent()

  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill('Side project')
  await dialog.getByRole('radio', { name: 'An empty folder' }).check()
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(project.locator('option:checked')).toHaveText('Side project')
  await app.newSession()
  await app.rename(/New session · /, 'Side work')

  await page.goBack()
  await expect(project.locator('option:checked')).toHaveText(home!)
  await expect(app.main.getByRole('heading', { level: 1, name: 'Home work' })).toBeVisible()
  await page.goForward()
  await expect(project.locator('option:checked')).toHaveText('Side project')
  await expect(app.main.getByRole('heading', { level: 1, name: 'Side work' })).toBeVisible()
})
