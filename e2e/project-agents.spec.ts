import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, type RecordedRequest } from './testing/model-script'
import { requestsOf } from './testing/requests'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const chats = async () => requestsOf(await model.requests())

/** The request's system prompt, all system messages joined. */
function systemOf(request: RecordedRequest): string {
  return (request.body?.messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join('')))
    .join('\n')
}

const toolNames = (request: RecordedRequest) => (request.body?.tools ?? []).map((tool) => tool.function.name)

/** Writes files into the project's workspace, as the Files panel's upload does. */
async function writeProjectFiles(page: Page, files: Record<string, string>) {
  await page.evaluate(async (entries) => {
    const hook = window.__tabcode!
    const encode = (text: string) => new TextEncoder().encode(text)
    await hook.api.writeUploaded({
      projectID: hook.projectID,
      directory: '',
      files: Object.entries(entries).map(([path, text]) => ({ path, data: encode(text) })),
    })
  }, files)
}

/** Picks an agent in the prompt box; focusing the picker asks the worker for the agents again. */
async function pickAgent(page: Page, name: string) {
  const picker = page.getByRole('combobox', { name: 'Agent' })
  await picker.focus()
  await expect(picker.getByRole('option', { name, exact: true })).toHaveCount(1)
  await picker.selectOption(name)
}

const REVIEWER = [
  '---',
  'description: Reviews code without changing it',
  'mode: primary',
  'temperature: 0.2',
  'permission:',
  '  edit: deny',
  '---',
  'You are the reviewer from the project file. Marker: PROJECT-REVIEWER-PROMPT.',
  '',
].join('\n')

test('an agent from .opencode/agent/*.md is offered in the Agent picker and runs with its own prompt, temperature and rules', async ({ page }) => {
  await model.push([streamText('Reviewed, nothing changed.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await writeProjectFiles(page, { '.opencode/agent/reviewer.md': REVIEWER })
  await pickAgent(page, 'reviewer')
  await app.send('Review the project')
  await expect(app.replies().first()).toContainText('Reviewed, nothing changed.')

  const [request] = await chats()
  expect(systemOf(request!)).toContain('Marker: PROJECT-REVIEWER-PROMPT.')
  expect(systemOf(request!)).not.toContain('You are tabcode, a coding agent')
  expect(request!.body).toMatchObject({ temperature: 0.2 })
  // `edit: deny` hides every file-changing tool; the others stay.
  expect(toolNames(request!)).toContain('read')
  expect(toolNames(request!)).not.toContain('edit')
  expect(toolNames(request!)).not.toContain('write')

  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await expect(settings.getByRole('listitem').filter({ hasText: 'reviewer' })).toContainText('project file .opencode/agent/reviewer.md')
})

test('a malformed agent file is listed in Settings with its line and what is wrong, and the built-in agents still work', async ({ page }) => {
  await model.push([streamText('Build still answers.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await writeProjectFiles(page, {
    '.opencode/agent/broken.md': '---\ndescription: Broken\nmode: boss\n---\nHi\n',
    '.opencode/agents/unclosed.md': '---\ndescription: [oops\n---\nHi\n',
  })
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  const problems = settings.getByRole('list', { name: 'Agent files that cannot be used' })
  await expect(problems).toContainText('.opencode/agent/broken.md: line 3: `mode` must be primary, subagent or all (not “boss”)')
  await expect(problems).toContainText('.opencode/agents/unclosed.md: its front matter is not valid YAML: line 2:')
  await settings.getByRole('button', { name: 'Close' }).click()

  const picker = page.getByRole('combobox', { name: 'Agent' })
  await picker.focus()
  await expect(picker.getByRole('option', { name: 'plan', exact: true })).toHaveCount(1)
  await expect(picker.getByRole('option', { name: 'broken', exact: true })).toHaveCount(0)
  await app.send('Are you there?')
  await expect(app.replies().first()).toContainText('Build still answers.')
  const [request] = await chats()
  expect(systemOf(request!)).toContain('You are tabcode, a coding agent')
})

test('an agent added in Settings is listed, offered in the picker, and runs with its prompt', async ({ page }) => {
  await model.push([streamText('Helper here.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('button', { name: 'Add agent' }).click()
  await settings.getByRole('textbox', { name: 'Name' }).fill('helper')
  await settings.getByRole('combobox', { name: 'Mode', exact: true }).selectOption('primary')
  await settings.getByRole('textbox', { name: 'Description' }).fill('Answers in one line')
  await settings.getByRole('textbox', { name: 'Prompt' }).fill('You are the helper from Settings. Marker: SETTINGS-HELPER-PROMPT.')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(settings).toContainText('Saved the helper agent.')
  await expect(settings.getByRole('listitem').filter({ hasText: 'helper' })).toContainText('added in Settings')
  await settings.getByRole('button', { name: 'Close' }).click()

  await pickAgent(page, 'helper')
  await app.send('Help me')
  await expect(app.replies().first()).toContainText('Helper here.')
  const [request] = await chats()
  expect(systemOf(request!)).toContain('Marker: SETTINGS-HELPER-PROMPT.')
})

test('a permission rule added in Settings applies to the next turn, and removing it lifts it', async ({ page }) => {
  await model.push([streamText('First.'), streamText('Second.'), streamText('Third.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.send('One')
  await expect(app.replies().first()).toContainText('First.')

  const editBuild = async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const settings = page.getByRole('dialog', { name: 'Settings' })
    await settings.getByRole('button', { name: 'Edit agent build' }).click()
    return settings
  }
  let settings = await editBuild()
  await settings.getByRole('button', { name: 'Add rule' }).click()
  await settings.getByRole('textbox', { name: 'Rule 1 permission' }).fill('bash')
  await settings.getByRole('combobox', { name: 'Rule 1 action' }).selectOption('deny')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(settings).toContainText('Saved the build agent.')
  await settings.getByRole('button', { name: 'Close' }).click()
  await app.send('Two')
  await expect(app.replies().nth(1)).toContainText('Second.')

  settings = await editBuild()
  await expect(settings.getByRole('textbox', { name: 'Rule 1 permission' })).toHaveValue('bash')
  await settings.getByRole('button', { name: 'Remove rule 1' }).click()
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(settings).toContainText(/Restored the built-in build agent\.|Saved the build agent\./)
  await settings.getByRole('button', { name: 'Close' }).click()
  await app.send('Three')
  await expect(app.replies().nth(2)).toContainText('Third.')

  const [first, second, third] = await chats()
  expect(toolNames(first!)).toContain('bash')
  expect(toolNames(second!)).not.toContain('bash')
  expect(toolNames(second!)).toContain('read')
  expect(toolNames(third!)).toContain('bash')
})
