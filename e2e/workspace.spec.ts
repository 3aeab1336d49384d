import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const askDialog = (page: Page) => page.getByRole('dialog')

test('the model writes, edits and runs commands; the file tree, terminal, patch and changes follow', async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 'w', name: 'write', args: { filePath: 'src/greeting.txt', content: 'hello world\n' } }]),
      toolCalls([{ id: 'e', name: 'edit', args: { filePath: 'src/greeting.txt', oldString: 'hello', newString: 'goodbye' } }]),
      toolCalls([{ id: 'b', name: 'bash', args: { command: 'cat src/greeting.txt && echo checked', description: 'Show the greeting' } }]),
      streamText('The greeting now says goodbye.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Write a greeting, then change it')
  await expect(app.replies().last()).toContainText('The greeting now says goodbye.')
  await expect(app.messages).toContainText('src/greeting.txt')

  const panel = await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files' }).click()
  const tree = panel.getByRole('tree', { name: 'Files' })
  await tree.getByRole('treeitem', { name: /src/ }).click()
  await tree.getByRole('treeitem', { name: /greeting\.txt/ }).click()
  await expect(panel).toContainText('goodbye world')

  await panel.getByRole('tab', { name: 'Terminal' }).click()
  const terminal = panel.getByRole('region', { name: 'Terminal' })
  await expect(terminal).toContainText('cat src/greeting.txt && echo checked')
  await expect(terminal).toContainText('goodbye world')
  await expect(terminal).toContainText('checked')

  await panel.getByRole('tab', { name: 'Changes' }).click()
  await expect(panel).toContainText('src/greeting.txt')
  await expect(panel).toContainText('+goodbye world')
})

test('asks before reading a .env file: once, always (remembered after a reload, revocable), reject, reject with feedback', async ({ page }) => {
  const readEnv = (id: string) => toolCalls([{ id, name: 'read', args: { filePath: '.env' } }])
  await model.push(
    [
      toolCalls([{ id: 'seed', name: 'write', args: { filePath: '.env', content: 'TOKEN=abc\n' } }]),
      readEnv('once'),
      streamText('Read it once.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Create the env file and read it')
  const dialog = askDialog(page)
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('.env')
  // A file that may hold secrets: a hasty Enter rejects, so Reject has the focus.
  await expect(dialog.getByRole('button', { name: 'Reject', exact: true })).toBeFocused()
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(app.replies().last()).toContainText('Read it once.')

  // Always: remembered for the project, so the next read asks nothing, even after a reload.
  await model.push([readEnv('always'), streamText('Allowed for good.')], { model: 'mock-model' })
  await app.send('Read it again')
  await dialog.getByRole('button', { name: 'Always allow' }).click()
  await expect(app.replies().last()).toContainText('Allowed for good.')
  await page.reload()
  await model.push([readEnv('remembered'), streamText('No question this time.')], { model: 'mock-model' })
  await app.send('And again')
  await expect(app.replies().last()).toContainText('No question this time.')
  await expect(dialog).toBeHidden()

  // Revoked in settings: the next read asks again; a plain reject stops the turn.
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('button', { name: /Revoke read/ }).click()
  await expect(settings).toContainText('Nothing is remembered yet.')
  await page.keyboard.press('Escape')
  await model.push([readEnv('rejected')], { model: 'mock-model' })
  await app.send('Read it once more')
  await askDialog(page).getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(app.messages).toContainText('The user rejected permission')
  // The turn stopped at the rejection: no further request went to the model.
  await expect(app.status).toHaveText('')
  const before = (await model.requests()).length

  // Reject with feedback: the model reads it and answers.
  await model.push([readEnv('corrected'), streamText('Understood, I will use .env.example.')], { model: 'mock-model' })
  await app.send('Try once more')
  await askDialog(page).getByLabel('Or tell the agent what to do instead').fill('Use .env.example instead')
  await askDialog(page).getByRole('button', { name: 'Reject with feedback' }).click()
  await expect(app.replies().last()).toContainText('Understood, I will use .env.example.')
  const requests = await model.requests()
  // The prompt, then the step that reads the feedback as the tool's error (a title request may come between).
  expect(requests.slice(before).some((request) => JSON.stringify(request.body).includes('Use .env.example instead'))).toBe(true)
})

test('the same call three times in a row asks before going on', async ({ page }) => {
  const list = (id: string) => toolCalls([{ id, name: 'list', args: { path: '.' } }])
  await model.push([list('a'), list('b'), list('c'), streamText('Stopped looping.')], { model: 'mock-model' })
  const app = await Conversation.started(page)
  await app.send('Look around')
  const dialog = askDialog(page)
  await expect(dialog).toContainText('repeating itself')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(app.replies().last()).toContainText('Stopped looping.')
})

/** Every request the browser makes to a host other than this machine's (the app and the scripted model). */
function offMachineRequests(page: Page): string[] {
  const seen: string[] = []
  page.context().on('request', (request) => {
    const url = new URL(request.url())
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return
    if (url.hostname !== '127.0.0.1') seen.push(request.url())
  })
  return seen
}

test('a first visit contacts nobody but the app: WebContainer is not started until a command needs it', async ({ page }) => {
  const away = offMachineRequests(page)
  const app = await Conversation.started(page)
  const panel = await showWorkspace(page)
  const badge = panel.getByText('Offline workspace', { exact: true })
  await expect(badge).toHaveAccessibleDescription(/WebContainer starts when a command needs Node\.js or npm/)
  await expect(panel.getByRole('button', { name: 'Start WebContainer' })).toBeEnabled()
  // A turn that runs an ordinary command stays offline too.
  await model.push([toolCalls([{ id: 'b', name: 'bash', args: { command: 'echo offline && ls', description: 'Echo' } }]), streamText('Done.')], {
    model: 'mock-model',
  })
  await app.send('Run something')
  await expect(app.replies().last()).toContainText('Done.')
  expect(away).toEqual([])
  await expect(page.locator('iframe[src*="stackblitz"]')).toHaveCount(0)
})

test('npm asks for WebContainer; without StackBlitz it gives up within its timeout and the command says why', async ({ page }) => {
  test.setTimeout(75_000)
  const away = offMachineRequests(page)
  await model.push([toolCalls([{ id: 'b', name: 'bash', args: { command: 'npm install', description: 'Install' } }]), streamText('Could not install.')], {
    model: 'mock-model',
  })
  const app = await Conversation.started(page)
  const panel = await showWorkspace(page)
  await app.send('Install the dependencies')
  // Starting WebContainer for the agent asks first: its commands reach the network (issue 27).
  await page.getByRole('dialog', { name: 'Start WebContainer for the agent?' }).getByRole('button', { name: 'Allow once' }).click()
  // The boot never settles here (no internet): after its 20 s timeout the reason says what happened.
  const card = app.messages.getByRole('group', { name: 'Tool call: bash' })
  await expect(card).toContainText(/WebContainer is not available: (StackBlitz could not be reached within 20 s|WebContainer failed to start)/, { timeout: 45_000 })
  await expect(app.replies().last()).toContainText('Could not install.')
  await expect(panel.getByText('Offline workspace', { exact: true })).toHaveAccessibleDescription(/StackBlitz could not be reached within 20 s|WebContainer failed to start/)
  // It was asked for, so it tried StackBlitz: only now.
  expect(away.some((url) => new URL(url).hostname.endsWith('stackblitz.com'))).toBe(true)
})

test('with "Offline workspace only", npm never contacts StackBlitz and says WebContainer is turned off', async ({ page }) => {
  const away = offMachineRequests(page)
  const app = await Conversation.started(page)
  await page.evaluate(() => window.__tabcode!.api.setSetting({ key: 'workspace.backend', value: 'local' }))
  await page.reload()
  await app.ready()
  await app.newSession()
  const panel = await showWorkspace(page)
  await expect(panel.getByText('Offline workspace', { exact: true })).toHaveAccessibleDescription(/turned off in Settings/)
  await expect(panel.getByRole('button', { name: 'Start WebContainer' })).toHaveCount(0)
  await model.push([toolCalls([{ id: 'b', name: 'bash', args: { command: 'npm install', description: 'Install' } }]), streamText('Offline only.')], {
    model: 'mock-model',
  })
  await app.send('Install the dependencies')
  // The agent asks to start it whatever the setting says (the tool cannot tell); allowed, the setting still wins.
  await page.getByRole('dialog', { name: 'Start WebContainer for the agent?' }).getByRole('button', { name: 'Allow once' }).click()
  await expect(app.replies().last()).toContainText('Offline only.')
  await expect(app.messages.getByRole('group', { name: 'Tool call: bash' })).toContainText('WebContainer is not available: it is turned off in Settings')
  expect(away).toEqual([])
})

test('a tool its agent denies with "*" is not even offered to the model', async ({ page }) => {
  const app = await Conversation.started(page)
  await page.evaluate(async () => {
    const hook = (window as unknown as { __tabcode: { api: { saveAgentSettings(input: unknown): Promise<unknown> } } }).__tabcode
    await hook.api.saveAgentSettings({ name: 'build', override: { permission: [{ permission: 'bash', pattern: '*', action: 'deny' }] } })
  })
  await model.push([streamText('No shell for me.')], { model: 'mock-model' })
  await app.send('What can you use?')
  await expect(app.replies().last()).toContainText('No shell for me.')
  const requests = await model.requests()
  const chat = requests.filter((request) => (request.body as { model?: string } | undefined)?.model === 'mock-model')
  const tools = ((chat.at(-1)!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name)
  expect(tools).toContain('read')
  expect(tools).not.toContain('bash')
})

test('the plan agent cannot edit project files', async ({ page }) => {
  await model.push(
    [toolCalls([{ id: 'w', name: 'write', args: { filePath: 'src/app.ts', content: 'changed' } }]), streamText('I may only plan.')],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('plan')
  await app.send('Change the app')
  await expect(app.replies().last()).toContainText('I may only plan.')
  await expect(app.messages.getByRole('group', { name: 'Tool call: write' })).toContainText('edit "*" → deny')
  // Nothing was written: the project is still empty.
  const files = await page.evaluate(async () => {
    const hook = (window as unknown as { __tabcode: { api: { listFiles(input: { projectID: string; path: string }): Promise<unknown[]> }; projectID: string } }).__tabcode
    return hook.api.listFiles({ projectID: hook.projectID, path: '/workspace' })
  })
  expect(files).toEqual([])
})

test('a task runs a subagent in a child session listed under its parent', async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 't', name: 'task', args: { description: 'Survey the files', prompt: 'List what is here', subagent_type: 'explore' } }]),
      streamText('The project is empty.'),
      streamText('The explorer reports an empty project.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Delegate a survey')
  await expect(app.replies().last()).toContainText('The explorer reports an empty project.')
  const children = page.getByRole('list', { name: /^Subagent sessions of/ })
  const child = children.getByRole('link', { name: /^Subagent session: Survey the files/ })
  await expect(child).toBeVisible()
  await child.click()
  await expect(app.messages).toContainText('List what is here')
  await expect(app.messages).toContainText('The project is empty.')
})
