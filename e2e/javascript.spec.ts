import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_MODEL_SERVER_URL, ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string) => toolCalls([{ id, name: 'bash', args: { command, description: `Run ${id}` } }])
const write = (id: string, filePath: string, content: string) => toolCalls([{ id, name: 'write', args: { filePath, content } }])

test('the model writes a module with a require and runs it with node; the output is shown', async ({ page }) => {
  await model.push(
    [
      write('lib', 'src/math.js', 'exports.sum = (...n) => n.reduce((a, b) => a + b, 0)\n'),
      write('main', 'src/main.js', "const { sum } = require('./math')\nconst fs = require('fs')\nfs.writeFileSync('total.txt', String(sum(1, 2, 3)))\nconsole.log(`sum is ${sum(1, 2, 3)}`, process.argv.slice(2))\n"),
      bash('run', 'node src/main.js --fast && cat total.txt && node -p "6 * 7"'),
      streamText('It prints the sum.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Write a summing module and run it')
  await expect(app.replies().last()).toContainText('It prints the sum.')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText("sum is 6 [ '--fast' ]")
  await expect(card).toContainText('42')
  // The file the script wrote is a project file now: `cat` read it back.
  const result = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const toolOutput = result.body!.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'run')
  expect(JSON.stringify(toolOutput)).toContain("sum is 6 [ '--fast' ]\\n6")
})

test('Stop ends a runaway while (true) {} within a second', async ({ page }) => {
  await model.push([bash('spin', "node -e \"console.log('spinning'); while (true) {}\"")], { model: 'mock-model' })
  const app = await Conversation.started(page)
  await app.send('Spin forever')
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  // The script is inside its loop once its first line is out; the engine's worker is running it.
  await expect(card).toContainText('spinning')
  const engines = () => page.workers().filter((worker) => worker.url().includes('engine-worker')).length
  // Playwright may hear of the nested worker a moment after its first output.
  await expect.poll(engines).toBe(1)
  // Timed from the click as the page received it: on this loaded machine Playwright's own click can take longer.
  await page.evaluate(() => {
    const mark = () => ((window as unknown as { stopClickedAt: number }).stopClickedAt = Date.now())
    document.addEventListener('click', mark, { capture: true, once: true })
  })
  await app.stopButton().click()
  // The engine itself is gone, not just the tool card updated (a busy loop would otherwise go on burning a core).
  await expect.poll(engines, { timeout: 2_000, intervals: [25] }).toBe(0)
  const gone = Date.now()
  const clicked = await page.evaluate(() => (window as unknown as { stopClickedAt: number }).stopClickedAt)
  expect(gone - clicked).toBeLessThan(1_000)
  await expect(card).toContainText('interrupted')
  await app.idle()

  // The next run starts a fresh engine and works.
  await model.push([bash('after', 'node -e "console.log(1 + 1)"'), streamText('Back to normal.')], { model: 'mock-model' })
  await app.send('Try again')
  await expect(app.replies().last()).toContainText('Back to normal.')
  await expect(app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()).toContainText('2')
})

test("the command's timeout ends a runaway script and its engine", async ({ page }) => {
  await model.push(
    [
      toolCalls([{ id: 'slow', name: 'bash', args: { command: 'node -e "while (true) {}"', timeout: 1_500, description: 'Spin' } }]),
      streamText('It timed out.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Spin for a while')
  await expect(app.replies().last()).toContainText('It timed out.')
  const result = (await model.requests()).filter((request) => request.model === 'mock-model').at(-1)!
  const toolOutput = result.body!.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'slow')
  expect(JSON.stringify(toolOutput)).toContain('terminated command after exceeding timeout 1500 ms')
  await expect.poll(() => page.workers().filter((worker) => worker.url().includes('engine-worker')).length, { timeout: 1_000 }).toBe(0)
})

// The engine's first start (its wasm compiled, the prelude run) can take many seconds on a loaded 2-core machine.
const ENGINE_START_MS = 60_000

test("a script reaches neither the app's IndexedDB nor the network", async ({ page, context }) => {
  test.setTimeout(2 * ENGINE_START_MS)
  const requested: string[] = []
  context.on('request', (request) => requested.push(request.url()))
  const probe = [
    "for (const [name, f] of Object.entries({",
    "  indexedDB: () => indexedDB.open('tabcode'),",
    "  XMLHttpRequest: () => new XMLHttpRequest().open('GET', 'https://example.com/xhr'),",
    "  importScripts: () => importScripts('https://example.com/script.js'),",
    "})) { try { f(); console.log(name, 'REACHED') } catch (e) { console.log(name, 'refused:', e.name, e.message) } }",
    "fetch('https://example.com/fetch').then(() => console.log('fetch REACHED'), (e) => console.log('fetch refused:', e.message))",
    '',
  ].join('\n')
  await model.push(
    [write('probe', 'probe.js', probe), bash('run', 'node probe.js'), streamText('All refused.')],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Try to escape')
  await expect(app.replies().last()).toContainText('All refused.', { timeout: ENGINE_START_MS })
  const card = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(card).toContainText('indexedDB refused: ReferenceError')
  await expect(card).toContainText('XMLHttpRequest refused: ReferenceError')
  await expect(card).toContainText('importScripts refused: ReferenceError')
  await expect(card).toContainText('fetch refused: fetch is not available in the offline node')
  await expect(card).not.toContainText('REACHED')
  const origin = new URL(page.url()).origin
  // The app's own requests go to its origin and the model (WebContainer starts only for npm); the script's to none.
  const elsewhere = requested.filter((url) => !url.startsWith(origin) && !url.startsWith(MOCK_MODEL_SERVER_URL) && !url.startsWith('data:'))
  expect(elsewhere).toEqual([])
  expect(requested.some((url) => url.includes('example.com'))).toBe(false)
})

test("after one visit node runs without the network: the engine and its wasm come from the app's cache", async ({ page, context }) => {
  test.setTimeout(2 * ENGINE_START_MS)
  const app = await Conversation.started(page)
  await app.waitUntilAvailableOffline()
  // Never used yet; from here on, nothing of the engine may come from the network (interception also skips the HTTP cache).
  let fetched = 0
  await context.route(/\/assets\/.*(quickjs|emscripten|engine-worker|javascript).*\.(wasm|js)$|\.wasm$/, (route) => {
    fetched++
    return route.abort('internetdisconnected')
  })
  await page.reload()
  await app.ready()
  await model.push([bash('cached', 'node -e "console.log(\'from the cache\', 6 * 7)"'), streamText('Ran it.')], { model: 'mock-model' })
  await app.send('Run node')
  await expect(app.replies().last()).toContainText('Ran it.', { timeout: ENGINE_START_MS })
  await expect(app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()).toContainText('from the cache 42')
  expect(fetched).toBe(0)
})

test('a node project whose npm test is node --test: the TAP report as Node prints it, offline, exit 1 on a failure, 0 once fixed', async ({ page }) => {
  test.setTimeout(3 * ENGINE_START_MS)
  const tests = [
    "const test = require('node:test')",
    "const assert = require('node:assert/strict')",
    "const { slug } = require('../src/slug')",
    "test('lowercases', () => assert.equal(slug('Hello'), 'hello'))",
    "test('joins words with dashes', () => assert.equal(slug('Hello big World'), 'hello-big-world'))",
    '',
  ].join('\n')
  await model.push(
    [
      write('manifest', 'package.json', '{ "name": "slugs", "scripts": { "test": "node --test" } }\n'),
      write('lib', 'src/slug.js', "exports.slug = (text) => text.toLowerCase().replace(' ', '-')\n"),
      write('spec', 'test/slug.test.js', tests),
      bash('first', 'npm test'),
      streamText('One test fails.'),
    ],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Write a slug function with tests and run them')
  await expect(app.replies().last()).toContainText('One test fails.', { timeout: ENGINE_START_MS })
  const first = app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()
  // The card shows how the run ended without opening anything: the summary is the report's last lines.
  const ending = first.getByRole('figure', { name: 'End of the output' })
  await expect(ending).toContainText('# pass 1')
  await expect(ending).toContainText('# fail 1')
  await expect(first).toContainText('ran offline')
  // The report is longer than a card shows at first: open the output, then all of it.
  await first.getByText(/^Output/).click()
  await first.getByRole('button', { name: /^Show all/ }).click()
  await expect(first).toContainText('> node --test')
  await expect(first).toContainText('TAP version 13')
  await expect(first).toContainText('ok 1 - lowercases')
  await expect(first).toContainText('not ok 2 - joins words with dashes')
  await expect(first).toContainText("'hello-big world' !== 'hello-big-world'")
  await expect(first).toContainText('# tests 2')
  await expect(first).toContainText('# pass 1')
  await expect(first).toContainText('# fail 1')
  await expect(first).toContainText('failed · exit 1')
  const requests = (await model.requests()).filter((request) => request.model === 'mock-model')
  const firstOutput = requests.at(-1)!.body!.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'first')
  expect(JSON.stringify(firstOutput)).toContain('Command exited with code 1')

  await model.push(
    [write('fix', 'src/slug.js', "exports.slug = (text) => text.toLowerCase().split(' ').join('-')\n"), bash('second', 'npm test'), streamText('All pass now.')],
    { model: 'mock-model' },
  )
  await app.send('Fix it')
  await expect(app.replies().last()).toContainText('All pass now.', { timeout: ENGINE_START_MS })
  // Without a failure the report is short enough to show whole.
  const second = app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()
  await expect(second).toContainText('ok 2 - joins words with dashes')
  await expect(second).toContainText('# pass 2')
  await expect(second).toContainText('# fail 0')
  await expect(second).not.toContainText('failed · exit')
})

test('a rejection after an await is printed as Node prints it and the command exits 1; a benchmark loop prints every line', async ({ page }) => {
  test.setTimeout(3 * ENGINE_START_MS)
  const failing = ['async function load() {', "  await new Promise((resolve) => setTimeout(resolve, 5))", "  throw new Error('config missing')", '}', 'load()', "console.log('loading')", ''].join('\n')
  const bench = [
    'async function bench() {',
    '  for (let round = 1; round <= 20; round++) {',
    '    const start = performance.now()',
    '    await new Promise((resolve) => setTimeout(resolve, 1))',
    "    console.log(`round ${round}: ${performance.now() >= start ? 'timed' : 'broken'}`)",
    '  }',
    '}',
    'bench()',
    '',
  ].join('\n')
  await model.push(
    [write('load', 'load.js', failing), write('bench', 'bench.js', bench), bash('fail', 'node load.js'), bash('rounds', 'node bench.js'), streamText('Done.')],
    { model: 'mock-model' },
  )
  const app = await Conversation.started(page)
  await app.send('Run the loader and the benchmark')
  await expect(app.replies().last()).toContainText('Done.', { timeout: ENGINE_START_MS })
  const cards = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  // The model's two bash calls, in order: the loader, then the benchmark.
  const failed = cards.nth(0)
  await expect(failed).toContainText('loading')
  await expect(failed).toContainText("throw new Error('config missing')")
  await expect(failed).toContainText('Error: config missing')
  await expect(failed).toContainText('at load (/')
  await expect(failed).toContainText('failed · exit 1')
  const rounds = cards.nth(1)
  await expect(rounds).toContainText('round 1: timed')
  await expect(rounds).toContainText('round 20: timed')
  await expect(rounds).not.toContainText('failed · exit')
})
