// Python in the offline workspace (issue 14): how long the first `python3` after a page load takes once its files
// are cached (the download is excluded: a run before the reload fills the cache), and a warm run of a one-line
// script (target ≤ 150 ms) with a clean interpreter per command (issue 29): each run leaves a mark on a standard
// module and fails if the mark of the run before is still there. Then the first `pytest` of that page (it installs
// pytest from the offline set of wheels the app serves, fetched from the local server, then imports it and runs a
// one-test suite) and a warm one. Each figure is the bash tool's own running time (its part's time.start →
// time.end), so the scripted model's latency is not in it; the model is a mock server of our own, used only by
// these sessions.
import { startMockModelServer } from '../../test-servers/mock-model-server.mjs'
import { median, openFresh } from './page.mjs'
import { size } from './size.mjs'

const MODEL = 'python-bench'
const WARM_RUNS = size(5, 1)

const SUITE = "printf 'def test_one():\\n    assert 1 + 1 == 2\\n' > test_bench.py && pytest -q test_bench.py"
const passed = (output) => /^1 passed in [\d.]+s$/m.test(output)

/** `{ pythonFirstRunMs, pythonWarmRunMs, pytestFirstRunMs, pytestWarmRunMs }` for a page on the app with a project open. */
export async function runtimePython(page) {
  const mock = await startMockModelServer()
  try {
    const providerID = await page.evaluate(
      async ({ baseURL, model }) =>
        (
          await window.__tabcode.api.saveProvider({
            type: 'openai-compatible',
            name: 'Mock server (Python bench)',
            baseURL,
            apiKey: 'sk-mock-python-bench',
            models: [{ id: model, limit: { context: 100_000, output: 4_096 }, cost: { input: 0, output: 0 } }],
          })
        ).id,
      { baseURL: `${mock.url}/v1`, model: MODEL },
    )
    const run = (index) =>
      runInTurn(
        page,
        mock.url,
        providerID,
        `python3 -c "import json; print('left over' if hasattr(json, 'mark') else ${index}); json.mark = 1"`,
        (output) => output.trim().split('\n').at(-1) === String(index),
      )

    await run(0)
    await openFresh(page, page.url())
    const first = await run(1)
    const warm = []
    for (let index = 0; index < WARM_RUNS; index++) warm.push(await run(index + 2))
    const pytestFirst = await runInTurn(page, mock.url, providerID, SUITE, passed)
    const pytestWarm = await runInTurn(page, mock.url, providerID, SUITE, passed)
    return { pythonFirstRunMs: Math.round(first), pythonWarmRunMs: Math.round(median(warm)), pytestFirstRunMs: Math.round(pytestFirst), pytestWarmRunMs: Math.round(pytestWarm) }
  } finally {
    await mock.close()
  }
}

/** One turn whose model calls bash once; the tool's running time, after checking its output. */
async function runInTurn(page, mockURL, providerID, command, check) {
  const script = {
    model: MODEL,
    responses: [
      { type: 'stream', chunks: [{ toolCall: { id: 'py', name: 'bash', arguments: JSON.stringify({ command, description: 'Python bench' }) } }] },
      { type: 'stream', chunks: [{ text: 'done' }] },
    ],
  }
  const response = await fetch(`${mockURL}/__script`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(script) })
  if (!response.ok) throw new Error(`mock model server: ${response.status} ${await response.text()}`)
  const tool = await page.evaluate(
    async ({ providerID, model }) => {
      const { api } = window.__tabcode
      const session = await api.createSession({ title: 'Python bench' })
      await api.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'run it' }], model: { providerID, modelID: model } })
      const deadline = Date.now() + 120_000
      while (Date.now() < deadline) {
        const { messages } = await api.pageMessages({ sessionID: session.id, limit: 50 })
        const parts = messages.flatMap((message) => message.parts)
        const part = parts.find((candidate) => candidate.type === 'tool' && candidate.tool === 'bash')
        const finished = parts.some((candidate) => candidate.type === 'text' && candidate.text === 'done')
        if (part && finished) return part.state
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error('the Python bench turn did not finish within 120 s')
    },
    { providerID, model: MODEL },
  )
  if (tool.status !== 'completed' || !check(tool.output)) throw new Error(`${command} gave ${JSON.stringify(tool)}`)
  return tool.time.end - tool.time.start
}
