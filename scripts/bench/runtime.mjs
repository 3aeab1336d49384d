// The offline workspace's runtimes (issue 14) through the real path: the scripted model asks the bash tool to run
// commands in the worker, over the project's IndexedDB workspace. Each figure is one bash call's own time (its tool
// part's start → end), so it holds the shell, the runtime and the workspace writes, not the model. Meanwhile the
// page's Long Tasks observer shows whether any of it held the main thread (it must not: everything runs in workers).
import { startMockModelServer } from '../../test-servers/mock-model-server.mjs'
import { median } from './page.mjs'
import { gitRuntime } from './runtime-git.mjs'
import { measureStaticPreview } from './runtime-preview.mjs'
import { runtimePython } from './runtime-python.mjs'
import { size } from './size.mjs'

const MODEL = 'mock-runtime-bench'
const WARM_RUNS = size(5, 1)

/** A 10,000-line CSV (a comment every 100th line) whose second column repeats every 97 lines, made by the shell. */
const MAKE_CSV =
  "seq 0 9999 | awk '{ if ($1 % 100 == 0) print \"# block \" $1 / 100; else print $1 \",item-\" ($1 % 97) \",\" ($1 % 50) }' > data.csv"
/** Ten stages: cat, grep, awk, sed, tr, sort, uniq, sort, head, wc. */
const PIPELINE =
  "cat data.csv | grep -v '^#' | awk -F, '$3 > 10 { print $2 }' | sed 's/item/name/' | tr a-z A-Z | sort | uniq -c | sort -rn | head -n 50 | wc -l"

const bash = (id, command) => ({
  type: 'stream',
  chunks: [{ toolCall: { id, name: 'bash', arguments: JSON.stringify({ command, description: 'Runtime bench' }) } }],
})

/** Runs `commands` as one turn's bash calls, in order; each call's output and running time. */
async function bashTurn(page, mockURL, commands) {
  const script = { model: MODEL, responses: [...commands.map((command, index) => bash(`r${index}`, command)), { type: 'text', text: 'runtime bench done' }] }
  const response = await fetch(`${mockURL}/__script`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(script) })
  if (!response.ok) throw new Error(`mock model server: ${response.status} ${await response.text()}`)
  return page.evaluate(
    async ({ baseURL, model, count }) => {
      const hook = window.__tabcode
      const api = hook.api
      const provider = await api.saveProvider({
        type: 'openai-compatible', name: 'Mock server (runtime bench)', baseURL, apiKey: 'sk-mock-runtime-bench',
        models: [{ id: model, limit: { context: 100_000, output: 4_096 }, cost: { input: 0, output: 0 } }],
      })
      try {
        const session = await api.createSession({ projectID: hook.projectID, title: 'Runtime bench' })
        await api.prompt({ sessionID: session.id, parts: [{ type: 'text', text: 'Run the commands' }], model: { providerID: provider.id, modelID: model } })
        const deadline = Date.now() + 120_000
        for (;;) {
          const { messages } = await api.pageMessages({ sessionID: session.id, limit: 50 })
          const parts = messages.flatMap((message) => message.parts)
          const calls = parts.filter((part) => part.type === 'tool')
          const failed = calls.find((part) => part.state.status === 'error')
          if (failed) throw new Error(`bash failed: ${JSON.stringify(failed.state)}`)
          if (parts.some((part) => part.type === 'text' && part.text === 'runtime bench done') && calls.length === count) {
            return calls.map((part) => ({ output: part.state.output, ms: part.state.time.end - part.state.time.start }))
          }
          if (Date.now() > deadline) throw new Error(`the runtime bench turn did not finish: ${calls.length} of ${count} commands ran`)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      } finally {
        await api.removeProvider(provider.id)
      }
    },
    { baseURL: `${mockURL}/v1`, model: MODEL, count: commands.length },
  )
}

const check = (ok, message) => {
  if (!ok) throw new Error(`runtime bench: ${message}`)
}

/** Watches the page's main thread for tasks of 50 ms or more (the Long Tasks API's own threshold). */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.__runtimeLongTasks = []
    new PerformanceObserver((list) => window.__runtimeLongTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' })
  })
  return () => page.evaluate(() => window.__runtimeLongTasks.slice())
}

/** Every runtime figure; the page must be on the app with a project open. Python goes last: it reloads the page. */
export async function runtimes(page, log) {
  const mock = await startMockModelServer()
  const figures = {}
  try {
    const longTasks = await watchLongTasks(page)
    log('runtimes: shell pipeline…')
    // Each run a different line: the same call three times in a row would stop for the doom-loop question.
    const shell = await bashTurn(page, mock.url, [MAKE_CSV, ...Array.from({ length: WARM_RUNS + 1 }, (_, index) => `${PIPELINE} # run ${index}`)])
    for (const run of shell.slice(1)) check(run.output.trim().startsWith('50'), `the pipeline answered ${JSON.stringify(run.output)}, not 50`)
    figures.shellPipelineFirstMs = shell[1].ms
    figures.shellPipelineMs_10Stages10kLines = median(shell.slice(2).map((run) => run.ms))

    log('runtimes: node…')
    const node = await bashTurn(page, mock.url, Array.from({ length: WARM_RUNS + 1 }, (_, index) => `node -e "console.log(${index} + 1)"`))
    node.forEach((run, index) => check(run.output.trim().startsWith(String(index + 1)), `node -e answered ${JSON.stringify(run.output)}`))
    figures.nodeFirstRunMs = node[0].ms
    figures.nodeRunMs_oneLine = median(node.slice(1).map((run) => run.ms))

    log('runtimes: git…')
    Object.assign(figures, await gitRuntime(page))
    const tasks = await longTasks()
    figures.runtimeMainThreadLongTasks = tasks.length
    figures.runtimeMainThreadLongestTaskMs = tasks.length ? Math.max(...tasks) : 0

    log('runtimes: static preview…')
    Object.assign(figures, await measureStaticPreview(page))

    log('runtimes: Python (reloads the page)…')
    Object.assign(figures, await runtimePython(page))
    return figures
  } finally {
    await mock.close()
  }
}
