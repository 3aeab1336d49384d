import { expect, test } from './testing/fixtures'
import { TerminalTab } from './page-models/terminal'
import { Workbench } from './page-models/workbench'

async function terminals(page: import('@playwright/test').Page) {
  const app = new Workbench(page)
  await app.open()
  await app.newSession()
  const tab = new TerminalTab(page)
  await tab.show()
  return tab
}

test('a terminal runs ls and pipelines, keeps its cwd, recalls with ↑, and what it writes shows in the tree', async ({ page }) => {
  const tab = await terminals(page)
  // The agent's read-only log stays as the first tab.
  await expect(tab.tabs.getByRole('tab').first()).toHaveText('Agent')
  const terminal = await tab.open('Terminal 1')
  await expect(terminal.screen.locator('textarea')).toBeFocused()

  await terminal.run('mkdir -p src && echo hello > src/greeting.txt && touch notes.md readme.txt')
  await terminal.run('ls')
  expect(await terminal.outputOf('ls')).toBe('notes.md\nreadme.txt\nsrc')
  await terminal.run('echo hi | tr a-z A-Z')
  expect(await terminal.outputOf('echo hi | tr a-z A-Z')).toBe('HI')
  await terminal.run('ls | wc -l')
  expect((await terminal.outputOf('ls | wc -l')).trim()).toBe('3')

  await terminal.run('cd src', '~/src')
  await terminal.run('export WHO=world', '~/src')
  await terminal.run('cat greeting.txt; echo "$WHO"; pwd', '~/src')
  expect(await terminal.outputOf('cat greeting.txt; echo "$WHO"; pwd')).toBe('hello\nworld\n/workspace/src')

  // ↑ recalls the last command, ↑ again the one before; Enter runs what shows.
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect.poll(async () => (await terminal.lastLines(1))[0]).toBe('~/src $ export WHO=world')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await terminal.lastLines(4)).join('\n')).toBe('hello\nworld\n/workspace/src\n~/src $')

  await tab.workspace.getByRole('tab', { name: 'Files' }).click()
  const tree = tab.workspace.getByRole('tree', { name: 'Files' })
  await expect(tree.getByRole('treeitem', { name: /notes\.md/ })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: /src/ })).toBeVisible()
})

test('Ctrl+C stops a sleep at once and the next command runs; on an empty line it prints ^C', async ({ page }) => {
  const tab = await terminals(page)
  const terminal = await tab.open('Terminal 1')
  await terminal.type('sleep 30')
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await terminal.lastLines(1))[0]).toBe('~ $ sleep 30')
  const stopped = Date.now()
  await page.keyboard.press('Control+C')
  await expect.poll(async () => (await terminal.lastLines(2)).join('\n'), { timeout: 5_000 }).toBe('^C\n~ $')
  expect(Date.now() - stopped).toBeLessThan(5_000)
  await terminal.run('echo next')
  expect(await terminal.outputOf('echo next')).toBe('next')

  await terminal.type('half typed')
  await page.keyboard.press('Control+C')
  await expect.poll(async () => (await terminal.lastLines(2)).join('\n')).toBe('~ $ half typed^C\n~ $')
  await page.keyboard.press('Control+L')
  await expect.poll(() => terminal.text()).toBe('~ $')
})

test('two terminals keep their own cwd; Esc leaves a terminal for its tab, and a terminal closes', async ({ page }) => {
  const tab = await terminals(page)
  const first = await tab.open('Terminal 1')
  await first.run('mkdir -p a b && cd a', '~/a')
  const second = await tab.open('Terminal 2')
  await second.run('cd b', '~/b')
  await second.run('pwd', '~/b')
  expect(await second.outputOf('pwd')).toBe('/workspace/b')

  await tab.tabs.getByRole('tab', { name: 'Terminal 1' }).click()
  await first.screen.click()
  await first.run('pwd', '~/a')
  expect(await first.outputOf('pwd')).toBe('/workspace/a')

  await page.keyboard.press('Escape')
  await expect(tab.tabs.getByRole('tab', { name: 'Terminal 1' })).toBeFocused()
  await expect(tab.workspace).toBeVisible()

  await tab.region.getByRole('button', { name: 'Close Terminal 2' }).click()
  await expect(tab.tabs.getByRole('tab')).toHaveText(['Agent', 'Terminal 1'])
})
