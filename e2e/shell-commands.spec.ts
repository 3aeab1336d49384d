import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'
import { SHELL_COMMANDS, outputsByCommand, shellCommandsScript } from './testing/shell-commands'

// The app's shell is just-bash's browser build with our modules in place of what that build leaves out (node:zlib,
// turndown's DOM; vite.config.ts) and our own tar: unit tests load its Node build, so these run the built app.

const model = new ModelScript()
// The shell (~400 KB gzip) loads with the first command; on a busy machine that alone takes seconds.
const FIRST_RUN = { timeout: 45_000 }

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string, description: string) => toolCalls([{ id, name: 'bash', args: { command, description } }])
const write = (id: string, filePath: string, content: string) => toolCalls([{ id, name: 'write', args: { filePath, content } }])

/** What the model was given back for its last tool call: for bash, the command's whole output. */
async function toolResult(): Promise<string> {
  const last = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const result = last.body!.messages.findLast((message) => message.role === 'tool')
  const content = (result as { content: unknown }).content
  return typeof content === 'string' ? content : JSON.stringify(content)
}

test('every command README.md lists for the offline shell runs in the built app, each printing what it should', async ({ page }) => {
  test.setTimeout(90_000)
  await model.push([bash('b', shellCommandsScript(), 'Runs every command once'), streamText('All ran.')], { model: 'mock-model' })
  const app = await Conversation.started(page)
  await app.send('Run every command once')
  await expect(app.replies().last()).toContainText('All ran.', FIRST_RUN)
  const outputs = outputsByCommand(await toolResult())
  expect(outputs).toEqual(Object.fromEntries(SHELL_COMMANDS.map(([name, , output]) => [name, output])))
})

test('tar czf then tar xzf gives the same files back; gunzip reads the archive', async ({ page }) => {
  test.setTimeout(90_000)
  await model.push(
    [
      write('w1', 'site/index.html', '<h1>hello</h1>\n'),
      write('w2', 'site/css/main.css', 'h1 { color: teal; }\n'),
      bash('pack', 'tar czf site.tgz site && rm -r site && tar tzf site.tgz', 'Packs the site'),
      bash('unpack', 'tar xzf site.tgz && cat site/index.html site/css/main.css && gunzip -c < site.tgz | wc -c', 'Unpacks it'),
      streamText('Round trip done.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Pack the site and unpack it')
  await expect(app.replies().last()).toContainText('Round trip done.', FIRST_RUN)
  const cards = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(cards.first()).toContainText('site/\nsite/css/\nsite/css/main.css\nsite/index.html')
  await expect(cards.last()).toContainText('completed')
  // A tar archive is whole 512-byte blocks.
  await expect(cards.last()).toContainText(/<h1>hello<\/h1>\nh1 \{ color: teal; \}\n\d+/)
  const size = Number((await toolResult()).trim().split('\n').at(-1))
  expect(size % 512).toBe(0)
})

test('npm test whose script is `node test.js` runs offline, with npm’s banner and the script’s exit code; nothing asks for WebContainer', async ({ page }) => {
  test.setTimeout(90_000)
  const pkg = JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { pretest: 'echo checking', test: 'node test.js' } })
  await model.push(
    [
      write('w1', 'package.json', pkg),
      write('w2', 'test.js', "const add = (a, b) => a + b\nif (add(2, 3) !== 5) { console.error('add is wrong'); process.exit(1) }\nconsole.log('1 passed, 0 failed', process.argv.slice(2).join(' '))\n"),
      bash('t', 'npm test -- --verbose', 'Runs the tests'),
      streamText('Tests pass.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Run the tests')
  await expect(app.replies().last()).toContainText('Tests pass.', FIRST_RUN)
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('completed')
  await expect(card).toContainText('> calc@1.0.0 pretest\n> echo checking\n\nchecking')
  await expect(card).toContainText('> calc@1.0.0 test\n> node test.js --verbose\n\n1 passed, 0 failed --verbose')
  await expect(page.getByRole('dialog', { name: 'Start WebContainer for the agent?' })).toHaveCount(0)
  await expect(page.locator('iframe[src*="stackblitz"]')).toHaveCount(0)
})

test('npm test whose script needs a package goes to WebContainer, which cannot start here, and the command says why', async ({ page }) => {
  test.setTimeout(120_000)
  await model.push(
    [
      write('w1', 'package.json', JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'vitest run' } })),
      bash('t', 'npm test', 'Runs the tests'),
      streamText('Vitest needs WebContainer.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Run the tests')
  await page.getByRole('dialog', { name: 'Start WebContainer for the agent?' }).getByRole('button', { name: 'Allow once' }).click()
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  // The boot never settles here (no internet): after its timeout the offline shell answers, naming what is missing.
  await expect(card).toContainText(/WebContainer is not available: (StackBlitz could not be reached within 20 s|WebContainer failed to start)/, { timeout: 45_000 })
  await expect(card).toContainText('npm: the "test" script needs `vitest`, which the offline workspace does not have; it runs in WebContainer')
  await expect(card).toContainText('failed · exit 127')
  await expect(app.replies().last()).toContainText('Vitest needs WebContainer.')
})
