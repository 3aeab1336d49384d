import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { hang, chunk, ModelScript, streamText } from './testing/model-script'
import { requestsOf, userTexts } from './testing/requests'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const chats = async () => requestsOf(await model.requests())

test('@ and a few letters, ArrowDown and Enter put a subagent mention in the prompt, by keyboard alone', async ({ page }) => {
  const app = new Conversation(page)
  await app.start()
  await app.prompt.focus()
  await page.keyboard.type('ask @gen')
  await expect(app.prompt).toHaveAttribute('aria-expanded', 'true')
  const list = page.getByRole('listbox', { name: 'Files and agents' })
  await expect(list.getByRole('option', { name: /@general/ })).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowUp')
  await expect(list.getByRole('option', { name: /@general/ })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(app.prompt).toHaveValue('ask @general ')
  await expect(app.prompt).toHaveAttribute('aria-expanded', 'false')
})

test('/init from the palette sends the AGENTS.md prompt, never the text /init', async ({ page }) => {
  await model.push([streamText('I will look around.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.prompt.focus()
  await page.keyboard.type('/in')
  const palette = page.getByRole('listbox', { name: 'Commands' })
  await expect(palette.getByRole('option', { name: /\/init/ })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(app.replies().first()).toContainText('I will look around.')
  const [request] = await chats()
  expect(userTexts(request!).join('\n')).toContain('AGENTS.md')
  expect(userTexts(request!).join('\n')).not.toContain('/init')
})

test('Escape closes the palette without stopping the running turn', async ({ page }) => {
  await model.push([hang(1, { chunks: [chunk.text('Working on it ')] }), streamText('done.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.send('Start something long')
  await expect(app.replies().first()).toContainText('Working on it')
  await app.prompt.focus()
  await page.keyboard.type('/')
  await expect(page.getByRole('listbox', { name: 'Commands' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('listbox', { name: 'Commands' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible()
})

test('a file picked with @ reaches the model with its contents, as the read tool shows it', async ({ page }) => {
  await model.push([streamText('It says hello.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await page.evaluate(async () => {
    const hook = window.__tabcode!
    const data = new TextEncoder().encode('greeting = "hello from notes"\n')
    await hook.api.writeUploaded({ projectID: hook.projectID, directory: '', files: [{ path: 'notes.py', data }] })
  })
  await app.prompt.focus()
  await page.keyboard.type('What does @notes')
  const list = page.getByRole('listbox', { name: 'Files and agents' })
  await expect(list.getByRole('option', { name: /notes\.py/ })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(app.prompt).toHaveValue('What does @notes.py ')
  await page.keyboard.type('say?')
  await page.keyboard.press('Enter')
  await expect(app.replies().first()).toContainText('It says hello.')
  const [request] = await chats()
  const sent = userTexts(request!).join('\n')
  expect(sent).toContain('What does @notes.py say?')
  expect(sent).toContain('Called the Read tool with the following input: {"filePath":"/workspace/notes.py"}')
  expect(sent).toContain('1: greeting = "hello from notes"')
})

test('/compact typed and sent runs the compaction instead of sending the text', async ({ page }) => {
  await model.push([streamText('Hi there.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.send('Hello')
  await expect(app.replies().first()).toContainText('Hi there.')
  await model.push([streamText('# Goal\n\nSay hello.\n\n## Progress\n\nWe said hello.')], { model: 'mock-model' })
  await app.prompt.focus()
  await page.keyboard.type('/compact')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('group', { name: /^Conversation compacted/ })).toContainText('Compacted on request')
  // The summary's sections read as small labels, not as headings larger than its text.
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByRole('heading', { name: 'Goal' })).toBeVisible()
  const size = (locator: typeof summary) => locator.evaluate((element) => parseFloat(getComputedStyle(element).fontSize))
  expect(await size(summary.getByRole('heading', { name: 'Goal' }))).toBeLessThanOrEqual(await size(summary.getByText('We said hello.')))
  const requests = await chats()
  expect(requests.map((request) => userTexts(request).join('\n')).join('\n')).not.toContain('/compact')
})

test('a project command from .opencode/command runs with its arguments filled in, and a broken one says what is wrong', async ({ page }) => {
  await model.push([streamText('Reviewed.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await page.evaluate(async () => {
    const hook = window.__tabcode!
    const encode = (text: string) => new TextEncoder().encode(text)
    await hook.api.writeUploaded({
      projectID: hook.projectID,
      directory: '',
      files: [
        { path: '.opencode/command/review.md', data: encode('---\ndescription: Review some code\n---\nReview $ARGUMENTS carefully.\n') },
        { path: '.opencode/command/broken.md', data: encode('---\ndescription: [oops\n---\nHi\n') },
      ],
    })
  })
  await app.prompt.focus()
  await page.keyboard.type('/')
  const palette = page.getByRole('listbox', { name: 'Commands' })
  await expect(palette.getByRole('option', { name: /\/broken/ })).toContainText('not valid YAML')
  await page.keyboard.type('rev')
  await expect(palette.getByRole('option', { name: /\/review.*Review some code/ })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(app.prompt).toHaveValue('/review ')
  await page.keyboard.type('src/parser.ts')
  await page.keyboard.press('Enter')
  await expect(app.replies().first()).toContainText('Reviewed.')
  const [request] = await chats()
  expect(userTexts(request!).join('\n')).toContain('Review src/parser.ts carefully.')
  expect(userTexts(request!).join('\n')).not.toContain('/review')

  await page.keyboard.type('/broken')
  await page.keyboard.press('Escape')
  await page.keyboard.press('Enter')
  await expect(page.getByText(/broken\.md: its front matter is not valid YAML/)).toBeVisible()
  await expect(app.prompt).toHaveValue('/broken')
})

test('a subagent named with @ is sent as the instruction to call it through the task tool', async ({ page }) => {
  await model.push([streamText('Handing it over.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  // Ending on the mention would leave its popup open, where Enter picks rather than sends.
  await app.send('@general look for dead code')
  await expect(app.replies().first()).toContainText('Handing it over.')
  const [request] = await chats()
  const sent = userTexts(request!).join('\n')
  expect(sent).toContain('@general look for dead code')
  expect(sent).toContain('call it with subagent: general')
})

test('/new from the palette opens a new session and leaves the old one in the list', async ({ page }) => {
  await model.push([streamText('Hi there.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Before the new one')
  await app.send('Hello')
  await expect(app.replies().first()).toContainText('Hi there.')
  const before = await app.sessionLinks().count()
  await app.prompt.focus()
  await page.keyboard.type('/new')
  await page.keyboard.press('Enter')
  await expect(app.sessionLinks()).toHaveCount(before + 1)
  await expect(app.main.getByText('No messages yet.')).toBeVisible()
  await expect(app.prompt).toHaveValue('')
  await expect(app.sessionLink(/^Before the new one/)).toBeVisible()
})
