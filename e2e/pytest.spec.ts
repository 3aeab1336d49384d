import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { MOCK_MODEL_SERVER_URL, ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string) => toolCalls([{ id, name: 'bash', args: { command, description: `Run ${id}` } }])
const write = (id: string, filePath: string, content: string) => toolCalls([{ id, name: 'write', args: { filePath, content } }])

test('the model runs a pytest suite: pytest installs itself from the offline set on first use, and pip says what it cannot install', async ({ page, context }) => {
  // The first use downloads Python (12 MB) and the offline set (1.8 MB) from our own origin.
  test.setTimeout(240_000)
  const urls: string[] = []
  context.on('request', (request) => void urls.push(request.url()))

  await model.push(
    [
      write('w1', 'calc.py', 'def add(a, b):\n    return a - b\n\n\ndef double(a):\n    return a * 2\n'),
      write('w2', 'tests/test_calc.py', 'from calc import add, double\n\n\ndef test_double():\n    assert double(2) == 4\n\n\ndef test_add():\n    assert add(2, 3) == 5\n'),
      bash('suite', 'pytest'),
      bash('again', 'pip install pytest && python3 -m pytest -q tests/test_calc.py::test_double'),
      bash('other', 'pip install requests'),
      streamText('One test fails: add subtracts.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Run the tests')
  await expect(app.replies().last()).toContainText('One test fails: add subtracts.', { timeout: 200_000 })

  const runs = app.messages.getByRole('group', { name: /^Tool call: bash/ })
  // pytest's own report: the failing assertion and its summary, and the exit code pytest gives a failed run.
  const suite = runs.nth(0)
  const ending = suite.getByRole('figure', { name: 'End of the output' })
  await expect(ending).toContainText('FAILED tests/test_calc.py::test_add - assert -1 == 5')
  await expect(ending).toContainText(/=+ 1 failed, 1 passed in [\d.]+s =+/)
  await expect(suite.getByText('Failed with exit code 1')).toBeVisible()
  // Installed on first use, with the download said on one line.
  await suite.locator('summary', { hasText: 'Output' }).click()
  await expect(suite.locator('.long-text pre')).toContainText(
    "Downloading iniconfig-2.3.0, packaging-26.3, pluggy-1.6.0, pygments-2.21.0, pytest-9.1.1 (tabcode's offline set, 1.8 MB)… done",
  )
  await expect(suite.locator('.long-text pre')).toContainText('platform emscripten -- Python 3.14.2, pytest-9.1.1, pluggy-1.6.0')

  // Once installed it stays installed for the next commands (each may get a new interpreter).
  const again = runs.nth(1).getByRole('figure', { name: 'End of the output' })
  await expect(again).toContainText('Requirement already satisfied: pytest in /lib/python3.14/site-packages (9.1.1)')
  await expect(again).toContainText(/1 passed in [\d.]+s/)

  // What the offline set does not have is refused plainly, with why.
  const other = runs.nth(2)
  await expect(other.getByRole('figure', { name: 'End of the output' })).toContainText(
    "ERROR: requests is not in tabcode's offline set (pytest, pluggy, iniconfig, packaging, pygments); installing from PyPI needs the network, which programs here do not have.",
  )
  await expect(other.getByText('Failed with exit code 1')).toBeVisible()

  // The wheels came from our own origin, and nothing else went out but the model's requests.
  const origin = new URL(page.url()).origin
  expect(urls).toContain(`${origin}/python-wheels/pytest-9.1.1-py3-none-any.whl`)
  const allowed = new Set([origin, new URL(MOCK_MODEL_SERVER_URL).origin])
  expect(urls.filter((url) => !allowed.has(new URL(url).origin))).toEqual([])
})

test('what pip installed stays installed after a reload, put back from the service worker’s cache: no download, and no network for the wheels', async ({ page, context }) => {
  // Two first loads of Python (from the network, then from the cache): slow on a busy machine.
  test.setTimeout(420_000)
  const app = new Conversation(page)
  await app.start()
  await app.waitUntilAvailableOffline()
  await model.push([write('w', 'test_one.py', 'def test_one():\n    assert True\n'), bash('online', 'pytest -q'), streamText('Ran once.')], { model: 'mock-model' })
  await app.send('Run the tests once')
  await expect(app.replies().last()).toContainText('Ran once.', { timeout: 200_000 })

  // From here on neither the wheels nor Python's files can come from the network.
  let wheels = 0
  await context.route('**/python-wheels/**', (route) => {
    if (route.request().url().endsWith('.whl')) wheels++
    return route.abort('internetdisconnected')
  })
  await context.route('**/pyodide/**', (route) => route.abort('internetdisconnected'))
  await page.reload()
  await app.ready()
  // What was installed stays installed after the reload, as on a machine: pip lists it before pytest runs.
  await model.push([bash('cached', 'pip freeze && pytest -q'), streamText('Ran again.')], { model: 'mock-model' })
  await app.send('Run the tests again')
  await expect(app.replies().last()).toContainText('Ran again.', { timeout: 200_000 })
  const run = app.messages.getByRole('group', { name: /^Tool call: bash/ }).last()
  // Short enough to be shown whole: pip's five lines, then pytest's, with no install by pytest in between.
  const ending = run.getByRole('figure', { name: 'End of the output' })
  await expect(ending).toContainText(/1 passed in [\d.]+s/)
  await expect(ending).toContainText('iniconfig==2.3.0\npackaging==26.3\npluggy==1.6.0\npygments==2.21.0\npytest==9.1.1')
  await expect(ending).not.toContainText("from tabcode's offline set")
  await expect(run).not.toContainText('Downloading')
  expect(wheels).toBe(0)
})
