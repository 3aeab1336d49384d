import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { TerminalTab } from './page-models/terminal'
import { createRepository, GIT_SERVER_TOKEN, hostClone, hostGit, withToken } from './testing/git-server'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

// The first git command loads the shell and isomorphic-git into the worker; a clone and a push are real requests.
test.describe.configure({ timeout: 90_000 })

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string) => toolCalls([{ id, name: 'bash', args: { command, description: `Run ${command}` } }])
const IDENTITY = 'git config user.name "Ada Lovelace" && git config user.email ada@example.org'

test('the agent clones, commits and pushes (the push asks for the token), git sees the commit, and a pull brings one back', async ({ page }) => {
  const url = await createRepository('shared')
  const host = new URL(url).host
  // Someone else's first commit, pushed from the host.
  const theirs = await hostClone(url)
  await writeFile(join(theirs, 'README.md'), '# shared\n')
  await hostGit(theirs, 'add', '.')
  await hostGit(theirs, 'commit', '-qm', 'readme')
  await hostGit(theirs, 'push', '-q', withToken(url), 'main')

  await model.push(
    [
      bash('clone', `git clone ${url} app && cd app && ${IDENTITY} && git log --oneline && git branch -a`),
      toolCalls([{ id: 'w', name: 'write', args: { filePath: 'app/notes.txt', content: 'from the tab\n' } }]),
      bash('commit', 'cd app && git add . && git commit -m "notes from the tab" && git status'),
      bash('push', 'cd app && git push && git status'),
      streamText('Pushed.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Clone the repository, add notes and push them')

  // The push finds no token for the host: the user is asked for one, and types it.
  const dialog = page.getByRole('dialog', { name: `Token for ${host}` })
  await expect(dialog).toBeVisible({ timeout: 30_000 })
  await dialog.getByLabel('Token').fill(GIT_SERVER_TOKEN)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(app.replies().last()).toContainText('Pushed.', { timeout: 30_000 })

  const runs = app.messages.getByRole('group', { name: 'Tool call: bash' })
  await expect(runs).toHaveCount(3)
  await expect(runs.nth(0)).toContainText(/[0-9a-f]{7} \(HEAD -> main, origin\/main, origin\/HEAD\) readme/)
  await expect(runs.nth(0)).toContainText('remotes/origin/main')
  await expect(runs.nth(1)).toContainText("Your branch is ahead of 'origin/main' by 1 commit.")
  await expect(runs.nth(2)).toContainText('main -> main')
  await expect(runs.nth(2)).toContainText("Your branch is up to date with 'origin/main'.")

  // A second clone, by git on the host, has the tab's commit.
  const second = await hostClone(url)
  expect(await readFile(join(second, 'notes.txt'), 'utf8')).toBe('from the tab\n')
  expect(await hostGit(second, 'log', '--format=%s %an')).toBe('notes from the tab Ada Lovelace\nreadme Host Person\n')

  // A commit pushed from the host comes back with `git pull`.
  await writeFile(join(second, 'README.md'), '# shared\n\nEdited on the host.\n')
  await hostGit(second, 'commit', '-qam', 'host edit')
  await hostGit(second, 'push', '-q', withToken(url), 'main')
  await model.push([bash('pull', 'cd app && git pull && cat README.md && git log --oneline -1'), streamText('Pulled.')], { model: 'mock-model' })
  await app.send('Pull the latest changes')
  await expect(app.replies().last()).toContainText('Pulled.')
  await expect(runs).toHaveCount(4)
  await expect(runs.nth(3)).toContainText('Fast-forward')
  await expect(runs.nth(3)).toContainText('Edited on the host.')
  await expect(runs.nth(3)).toContainText('host edit')

  // The user's terminal runs the same git: another commit from the host comes back with its `git pull`.
  await writeFile(join(second, 'CHANGELOG.md'), 'Second host edit.\n')
  await hostGit(second, 'add', '.')
  await hostGit(second, 'commit', '-qm', 'changelog')
  await hostGit(second, 'push', '-q', withToken(url), 'main')
  const tab = new TerminalTab(page)
  await tab.show()
  const terminal = await tab.open('Terminal 1')
  await terminal.run('cd app', '~/app')
  await terminal.run('git pull && cat CHANGELOG.md && git status -sb', '~/app')
  // The screen wraps long lines: the output is read by its short lines.
  const lines = (await terminal.text()).split('\n')
  expect(lines).toContain('Fast-forward')
  expect(lines).toContain('Second host edit.')
  expect(lines.at(-2)).toBe('## main...origin/main')

  // The token is kept for its host: Settings lists the host, never the token.
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await expect(settings.getByRole('button', { name: `Remove the token for ${host}` })).toBeVisible()
  await expect(settings).not.toContainText(GIT_SERVER_TOKEN)

  // A CORS proxy set in Settings is where git's requests go from then on (here one that is not running).
  await settings.getByRole('textbox', { name: 'CORS proxy' }).fill('http://127.0.0.1:9')
  await settings.getByRole('button', { name: 'Save proxy' }).click()
  await expect(settings.getByRole('status')).toContainText('git goes through the CORS proxy http://127.0.0.1:9.')
  await settings.getByRole('button', { name: `Remove the token for ${host}` }).click()
  await expect(settings).toContainText('No tokens kept.')
  await settings.getByRole('button', { name: 'Close' }).click()
  await terminal.screen.click()
  await terminal.run('git fetch', '~/app')
  expect((await terminal.text()).replace(/\n/g, '')).toContain('the request through the CORS proxy http://127.0.0.1:9 failed')
})

test('a wrong token says authentication failed and is not kept; Cancel fails the push as git does', async ({ page }) => {
  const url = await createRepository('wrong')
  const host = new URL(url).host
  await model.push(
    [
      bash('setup', `git clone ${url} w && cd w && ${IDENTITY} && git commit --allow-empty -m first`),
      bash('wrong', 'cd w && git push origin main'),
      bash('again', 'cd w && git push origin main'),
      streamText('Could not push.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Push the repository')

  const dialog = page.getByRole('dialog', { name: `Token for ${host}` })
  await expect(dialog).toBeVisible({ timeout: 30_000 })
  await dialog.getByLabel('Token').fill('not-the-token')
  await dialog.getByRole('button', { name: 'Save' }).click()
  const runs = app.messages.getByRole('group', { name: 'Tool call: bash' })
  await expect(runs.nth(1)).toContainText(`fatal: Authentication failed for '${url}'`)

  // The rejected token was not kept: the next push asks again, and Cancel ends it.
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Token')).toHaveValue('')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(app.replies().last()).toContainText('Could not push.')
  await expect(runs.nth(2)).toContainText(`fatal: could not read Password for '${url}'`)
})

test('a repository is cloned into a new project from the dialog, untrusted, and a URL that fails creates nothing', async ({ page }) => {
  const url = await createRepository('project')
  const theirs = await hostClone(url)
  await writeFile(join(theirs, 'README.md'), '# cloned\n')
  await hostGit(theirs, 'add', '.')
  await hostGit(theirs, 'commit', '-qm', 'readme')
  await hostGit(theirs, 'push', '-q', withToken(url), 'main')

  const app = new Conversation(page)
  await app.start()
  const projects = page.getByRole('combobox', { name: 'Project' }).locator('option')
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name', { exact: true }).fill('Missing')
  await dialog.getByRole('radio', { name: 'Clone repository' }).check()
  const missing = url.replace('.git', '-missing.git')
  await dialog.getByLabel('Repository URL').fill(missing)
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog.getByRole('alert')).toContainText(`Could not clone ${missing}: repository '${missing}' not found`, { timeout: 30_000 })
  await expect(projects).toHaveCount(1)

  await dialog.getByLabel('Name', { exact: true }).fill('Cloned')
  await dialog.getByLabel('Repository URL').fill(url)
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog).toBeHidden({ timeout: 30_000 })
  await expect(projects).toHaveCount(2)
  await expect(page.getByRole('group', { name: 'Project trust' })).toContainText('Untrusted')

  // The project's git knows where it came from.
  await app.newSession()
  await model.push([bash('log', 'git log --oneline && git remote -v && cat README.md'), streamText('Looked.')], { model: 'mock-model' })
  await app.send('What is this repository?')
  await expect(app.replies().last()).toContainText('Looked.', { timeout: 30_000 })
  const run = app.messages.getByRole('group', { name: 'Tool call: bash' })
  await expect(run).toContainText('(HEAD -> main, origin/main, origin/HEAD) readme')
  await expect(run).toContainText(`origin\t${url} (fetch)`.replace('\t', ' '))
  await expect(run).toContainText('# cloned')
})
