import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_MODEL_SERVER_URL, ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string) => toolCalls([{ id, name: 'bash', args: { command, description: `Run ${id}` } }])

async function readProjectFile(page: Page, path: string) {
  return page.evaluate(async (path) => {
    const hook = window.__tabcode!
    return hook.api.readFile({ projectID: hook.projectID, path })
  }, path)
}

test('the model tests its Python module with unittest, fixes it, and what Python writes lands in the project; nothing leaves the origin', async ({ page, context }) => {
  test.setTimeout(90_000)
  const urls: string[] = []
  context.on('request', (request) => void urls.push(request.url()))

  await model.push(
    [
      toolCalls([{ id: 'w1', name: 'write', args: { filePath: 'calc.py', content: 'def add(a, b):\n    return a - b\n' } }]),
      toolCalls([
        {
          id: 'w2',
          name: 'write',
          args: {
            filePath: 'test_calc.py',
            content: 'import unittest\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n',
          },
        },
      ]),
      bash('first', 'python3 -m unittest'),
      toolCalls([{ id: 'fix', name: 'edit', args: { filePath: 'calc.py', oldString: 'a - b', newString: 'a + b' } }]),
      bash('second', 'python3 -m unittest'),
      bash('report', `python3 -c "open('report.txt', 'w').write('all green')" && echo wrote`),
      streamText('The tests pass now.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Write an add function with a test, and make it pass')
  const reply = app.replies().last()
  await expect(reply).toContainText('The tests pass now.', { timeout: 60_000 })

  const runs = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  // The first use downloads the runtime from our origin and tells the user so, on the card, on one line of its own…
  await expect(runs.nth(0).getByRole('status', { name: 'Runtime notice' })).toHaveText(/^Loading Python \(first use, 12 MB\)…[ \d%]* done$/)
  await expect(runs.nth(1).getByRole('status', { name: 'Runtime notice' })).toHaveCount(0)
  // …but not the model: what the tool gave it is the test run's output alone.
  const toolResults = (await model.requests())
    .flatMap((request) => request.body?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.stringify(message.content))
  expect(toolResults.some((content) => content.includes('FAILED (failures=1)'))).toBe(true)
  expect(toolResults.filter((content) => content.includes('Loading Python'))).toEqual([])
  await expect(runs.nth(0)).toContainText('FAILED (failures=1)')
  await expect(runs.nth(0)).toContainText('AssertionError: -1 != 5')
  await expect(runs.nth(1)).toContainText('Ran 1 test')
  await expect(runs.nth(1)).toContainText('OK')
  await expect(runs.nth(2)).toContainText('wrote')

  expect(await readProjectFile(page, '/workspace/report.txt')).toMatchObject({ type: 'text', text: 'all green' })
  // The step's snapshot saw it too: the reply lists it among the files it changed.
  await expect(app.messages.getByRole('group', { name: 'Changed files' }).last()).toContainText('report.txt')

  // Python came from our own origin, and nothing else went out but the model's requests (WebContainer, whose runtime
  // is on StackBlitz, starts only when a command needs Node.js or npm).
  const origin = new URL(page.url()).origin
  expect(urls).toContain(`${origin}/pyodide/pyodide.asm.wasm`)
  expect(urls).toContain(`${origin}/pyodide/python_stdlib.zip`)
  const allowed = new Set([origin, new URL(MOCK_MODEL_SERVER_URL).origin])
  expect(urls.filter((url) => !allowed.has(new URL(url).origin))).toEqual([])
})

test('a test suite that changes process-wide state gives the same result every time it runs, as each command starts a new Python', async ({ page }) => {
  test.setTimeout(90_000)
  // Each import changes what a fresh process would not have: a patched json, a codec, a warnings filter, an atexit handler.
  const suite = [
    'import atexit, codecs, json, unittest, warnings',
    '',
    "AT_START = {'json': json.dumps(1), 'codec': True, 'filter': any(f[1] is not None and f[1].pattern == 'project marker' for f in warnings.filters)}",
    'try:',
    "    codecs.lookup('project_codec')",
    'except LookupError:',
    "    AT_START['codec'] = False",
    "json.dumps = lambda *args, **kwargs: 'patched'",
    "codecs.register(lambda name: codecs.lookup('utf-8') if name == 'project_codec' else None)",
    "warnings.filterwarnings('error', message='project marker')",
    "atexit.register(print, 'suite finished')",
    '',
    '',
    'class Fresh(unittest.TestCase):',
    '    def test_json_is_the_standard_one(self):',
    "        self.assertEqual(AT_START['json'], '1')",
    '',
    '    def test_no_codec_registered(self):',
    "        self.assertFalse(AT_START['codec'])",
    '',
    '    def test_no_warnings_filter_added(self):',
    "        self.assertFalse(AT_START['filter'])",
    '',
  ].join('\n')
  await model.push(
    [
      toolCalls([{ id: 'suite', name: 'write', args: { filePath: 'test_state.py', content: suite } }]),
      bash('run1', 'python3 -m unittest'),
      bash('run2', 'python3 -m unittest'),
      bash('run3', 'python3 -m unittest -v test_state'),
      streamText('Same result every time.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Run the suite a few times')
  await expect(app.replies().last()).toContainText('Same result every time.', { timeout: 60_000 })
  const runs = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(runs).toHaveCount(3)
  for (const index of [0, 1, 2]) {
    await expect(runs.nth(index)).toContainText('Ran 3 tests')
    await expect(runs.nth(index)).toContainText('OK')
    await expect(runs.nth(index)).not.toContainText('FAILED')
    await expect(runs.nth(index)).toContainText('exit 0')
    // The handler the suite registered runs at the end of each run, once.
    await expect(runs.nth(index)).toContainText('suite finished')
  }
  // Each request repeats the earlier results: counted once per tool call.
  const finished = new Set(
    (await model.requests())
      .flatMap((request) => request.body?.messages ?? [])
      .filter((message) => message.role === 'tool' && JSON.stringify(message.content).includes('suite finished'))
      .map((message) => message.tool_call_id),
  )
  expect([...finished].sort()).toEqual(['run1', 'run2', 'run3'])
})

test('Stop ends a runaway Python loop within a second, and Python still answers afterwards', async ({ page }) => {
  test.setTimeout(90_000)
  await model.push([bash('warm', 'python3 -c "print(6 * 7)"'), bash('spin', 'python3 -c "while True: pass"')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start()
  await app.send('Spin forever')
  const runs = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  await expect(runs.nth(0)).toContainText('42', { timeout: 60_000 })
  const spin = runs.nth(1)
  await expect(spin).toContainText('running')

  const stoppedAt = Date.now()
  await app.stopButton().click()
  await expect(spin).not.toContainText('running')
  expect(Date.now() - stoppedAt).toBeLessThan(1_000)
  await app.idle()

  await model.push([bash('after', 'python3 -c "print(\'still here\')"'), streamText('Python is fine.')], { model: 'mock-model' })
  await app.send('Is Python still there?')
  await expect(app.replies().last()).toContainText('Python is fine.')
  await expect(runs.last()).toContainText('still here')
})

test('after its first use Python loads from the service worker’s cache, with no download and no network for it', async ({ page, context }) => {
  test.setTimeout(90_000)
  const app = new Conversation(page)
  await app.start()
  await app.waitUntilAvailableOffline()
  // Not precached: nothing of Python is stored before it is first used.
  expect(await cachedPythonFiles(page)).toEqual([])
  await model.push([bash('online', 'python3 -c "print(\'first\')"'), streamText('Ran once.')], { model: 'mock-model' })
  await app.send('Run Python once')
  await expect(app.replies().last()).toContainText('Ran once.', { timeout: 60_000 })
  await expect.poll(() => cachedPythonFiles(page)).toEqual(['pyodide-lock.json', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip'])

  // From here on, Python's files cannot come from the network (and request interception also bypasses the HTTP cache).
  let fetched = 0
  await context.route('**/pyodide/**', (route) => {
    fetched++
    return route.abort('internetdisconnected')
  })
  await page.reload()
  await app.ready()
  await model.push([bash('cached', 'python3 -c "print(\'from the cache\')"'), streamText('Ran again.')], { model: 'mock-model' })
  await app.send('Run Python again')
  await expect(app.replies().last()).toContainText('Ran again.', { timeout: 60_000 })
  const run = app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()
  await expect(run).toContainText('from the cache')
  await expect(run).not.toContainText('Loading Python')
  expect(fetched).toBe(0)
})

/** The Python runtime files the service worker holds, in any cache. */
function cachedPythonFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = new Set<string>()
    for (const key of await caches.keys()) {
      for (const request of await (await caches.open(key)).keys()) {
        const path = new URL(request.url).pathname
        if (path.startsWith('/pyodide/')) names.add(path.slice('/pyodide/'.length))
      }
    }
    return [...names].sort()
  })
}

test.describe('a first download held back by the network', () => {
  // No service worker: the runtime's files come over the network, where the test holds one of them back.
  test.use({ serviceWorkers: 'block' })

  test('the card shows a bar and a count while Python downloads, and the notice says done when it is in', async ({ page, context }) => {
    test.setTimeout(90_000)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    await context.route(/\/pyodide\/python_stdlib\.zip$/, async (route) => {
      await held
      await route.continue()
    })
    await model.push([bash('first', 'python3 -c "print(6 * 7)"'), streamText('It printed 42.')], { model: 'mock-model' })
    const app = new Conversation(page)
    await app.start()
    await app.send('Multiply six by seven in Python')

    const card = app.messages.getByRole('group', { name: /^Tool call: bash/ }).first()
    const bar = card.getByRole('progressbar', { name: 'Python download progress' })
    await expect(bar).toBeVisible({ timeout: 30_000 })
    // The runtime's WebAssembly is in, its standard library is held: part of the way, and the card says how far.
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 30_000 }).toBeGreaterThan(9_000_000)
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(Number(await bar.getAttribute('max')))
    await expect(card).toContainText(/\d+\.\d MB of 1\d\.\d MB/)

    release()
    await expect(app.replies().last()).toContainText('It printed 42.', { timeout: 60_000 })
    await expect(bar).toHaveCount(0)
    await expect(card.getByRole('status', { name: 'Runtime notice' })).toHaveText(/^Loading Python \(first use, 12 MB\)….* done$/)
    await expect(card).toContainText('42')
  })
})
