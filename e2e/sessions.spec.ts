import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

test('creates, renames, archives and deletes sessions', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  await expect(app.main.getByRole('heading', { name: 'No session open' })).toBeVisible()

  await app.newSession()
  await expect(app.sessionLink(/^New session · /)).toHaveAttribute('aria-current', 'page')
  await expect(app.prompt).toBeVisible()
  await app.rename(/New session · /, 'Plan the parser')
  await expect(app.main.getByRole('heading', { level: 1, name: 'Plan the parser' })).toBeVisible()

  await app.newSession()
  await app.rename(/New session · /, 'Scratch work')
  await expect(app.sessionLinks()).toHaveCount(2)
  // Newest first: the session made last is on top.
  await expect(app.sessionLinks().first()).toHaveAccessibleName(/^Scratch work/)

  await app.sessions.getByRole('button', { name: 'Archive session "Plan the parser"' }).click()
  await expect(app.sessionLink(/^Plan the parser/)).toHaveCount(0)
  await app.sessions.getByRole('checkbox', { name: 'Show archived' }).check()
  await expect(app.sessionLink(/^Plan the parser.*archived/)).toBeVisible()
  await app.sessions.getByRole('button', { name: 'Unarchive session "Plan the parser"' }).click()
  await app.sessions.getByRole('checkbox', { name: 'Show archived' }).uncheck()
  await expect(app.sessionLink(/^Plan the parser/)).toBeVisible()

  await app.sessions.getByRole('button', { name: 'Delete session "Scratch work"' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete session?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(app.sessionLink(/^Scratch work/)).toBeVisible()

  await app.sessions.getByRole('button', { name: 'Delete session "Scratch work"' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(app.sessionLink(/^Scratch work/)).toHaveCount(0)
  await expect(app.sessionLinks()).toHaveCount(1)
})

test('finds sessions by title and keeps everything across a reload', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  for (const title of ['Fix the login bug', 'Write release notes', 'Login page styling']) {
    await app.newSession()
    await app.rename(/New session · /, title)
  }
  await app.sessions.getByRole('button', { name: 'Archive session "Write release notes"' }).click()

  const search = app.sessions.getByRole('searchbox', { name: 'Search sessions' })
  await search.fill('LOGIN')
  await expect(app.sessionLinks()).toHaveCount(2)
  await search.fill('')

  await page.reload()
  await app.ready()
  await expect(app.sessionLinks()).toHaveCount(2)
  await expect(app.sessionLinks().first()).toHaveAccessibleName(/^Login page styling/)
  await app.sessions.getByRole('checkbox', { name: 'Show archived' }).check()
  await expect(app.sessionLink(/^Write release notes.*archived/)).toBeVisible()
})

test('keyboard: new session, move between sessions, focus the prompt', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  await page.keyboard.press('Alt+N')
  await expect(app.sessionLinks()).toHaveCount(1)
  await app.rename(/New session · /, 'First')
  await page.keyboard.press('Alt+N')
  await expect(app.sessionLinks()).toHaveCount(2)
  await app.rename(/New session · /, 'Second')

  await expect(app.sessionLink(/^Second/)).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('Alt+ArrowDown')
  await expect(app.sessionLink(/^First/)).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('Alt+ArrowUp')
  await expect(app.sessionLink(/^Second/)).toHaveAttribute('aria-current', 'page')

  await page.getByRole('searchbox', { name: 'Search sessions' }).focus()
  await page.keyboard.press('Alt+L')
  await expect(app.prompt).toBeFocused()

  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click()
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(help).toContainText('New session')
  await page.keyboard.press('Escape')
  await expect(help).toBeHidden()
})

test('Back and Forward move between the sessions opened; an address opens its session in a new tab, and one of no session says so', async ({ page, context }) => {
  const app = new Workbench(page)
  await app.open()
  for (const title of ['First', 'Second', 'Third']) {
    await app.newSession()
    await app.rename(/New session · /, title)
  }
  const shown = (title: string) => expect(app.main.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await shown('Third')
  await app.sessionLink(/^First/).click()
  await shown('First')
  await app.sessionLink(/^Second/).click()
  await shown('Second')

  await page.goBack()
  await shown('First')
  await expect(app.sessionLink(/^First/)).toHaveAttribute('aria-current', 'page')
  await page.goBack()
  await shown('Third')
  await page.goForward()
  await shown('First')
  const address = page.url()

  // The address of a session, pasted into a new tab, opens it there.
  const other = new Workbench(await context.newPage())
  await other.open(new URL(address).pathname + new URL(address).hash)
  await expect(other.main.getByRole('heading', { level: 1, name: 'First' })).toBeVisible()
  // One of a session this browser does not hold (deleted, or made in another browser) says so.
  await other.page.goto('/#/session/ses_0000000000000000000000000')
  await expect(other.main.getByRole('alert')).toHaveText(/There is no session ses_0000000000000000000000000 here: it was deleted, or its address comes from another browser or profile\./)
})
