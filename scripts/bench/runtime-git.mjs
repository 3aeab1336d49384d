// The git runtime (src/workspace/git/) through the real path: the scripted model asks the bash tool to run git in
// the worker, over the project's IndexedDB workspace. Each figure is a bash tool call's own time (its part's start
// to end), so it holds the shell, the git command and the workspace writes, not the model.
import { startMockModelServer } from '../../test-servers/mock-model-server.mjs'

const FILES = 100

const bash = (id, command) => ({
  type: 'stream',
  chunks: [{ toolCall: { id, name: 'bash', arguments: JSON.stringify({ command, description: `Run ${command}` }) } }],
})

/** The measured steps: a figure name (or null for setup) and its command. */
const STEPS = [
  ['gitFirstCommandMs', 'git init'],
  // git refuses a commit by nobody, as it does on a machine without an identity.
  [null, 'git config user.name "Bench Author" && git config user.email bench@example.org'],
  [null, `mkdir -p src && for i in $(seq 1 ${FILES}); do echo "line $i of file $i" > src/f$i.txt; done`],
  [`gitAdd${FILES}FilesMs`, 'git add .'],
  [`gitCommit${FILES}FilesMs`, 'git commit -q -m first'],
  [null, 'echo changed > src/f1.txt && rm src/f2.txt'],
  [`gitStatus${FILES}FilesMs`, 'git status'],
  [`gitDiff${FILES}FilesMs`, 'git diff'],
  ['gitCommitAllMs', 'git commit -qam second'],
  ['gitLogMs', 'git log --oneline'],
]

/** Runs the steps in a new session of the open project and returns each figure in milliseconds. */
export async function gitRuntime(page) {
  const server = await startMockModelServer()
  try {
    const script = [...STEPS.map(([, command], index) => bash(`g${index}`, command)), { type: 'text', text: 'git bench done' }]
    const response = await fetch(`${server.url}/__script`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'mock-git-bench', responses: script }),
    })
    if (!response.ok) throw new Error(`mock model server: ${response.status} ${await response.text()}`)
    const tools = await page.evaluate(async ({ baseURL, steps }) => {
      const hook = window.__tabcode
      const api = hook.api
      const provider = await api.saveProvider({
        type: 'openai-compatible', name: 'Mock server (git bench)', baseURL, apiKey: 'sk-mock-git-bench',
        models: [{ id: 'mock-git-bench', limit: { context: 100_000, output: 4_096 }, cost: { input: 0, output: 0 } }],
      })
      try {
        const session = await api.createSession({ projectID: hook.projectID, title: 'git bench' })
        await api.prompt({
          sessionID: session.id,
          parts: [{ type: 'text', text: 'Version the project with git' }],
          model: { providerID: provider.id, modelID: 'mock-git-bench' },
        })
        const deadline = Date.now() + 120_000
        for (;;) {
          const { messages } = await api.pageMessages({ sessionID: session.id, limit: 50 })
          const parts = messages.flatMap((message) => message.parts)
          const done = parts.some((part) => part.type === 'text' && part.text === 'git bench done')
          const calls = parts.filter((part) => part.type === 'tool')
          const failed = parts.find((part) => part.type === 'tool' && part.state.status === 'error')
          if (failed) throw new Error(`bash failed: ${JSON.stringify(failed.state)}`)
          if (done && calls.length === steps) {
            return calls.map((part) => ({ output: part.state.output, ms: part.state.time.end - part.state.time.start }))
          }
          if (Date.now() > deadline) throw new Error(`the git bench turn did not finish: ${calls.length} of ${steps} commands ran`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      } finally {
        await api.removeProvider(provider.id)
      }
    }, { baseURL: `${server.url}/v1`, steps: STEPS.length })
    const figures = {}
    for (const [index, [name]] of STEPS.entries()) if (name) figures[name] = tools[index].ms
    const output = (name) => tools[STEPS.findIndex(([figure]) => figure === name)].output
    // The commands must have done their work, or the figures time an error message.
    if (!/Initialized empty Git repository/.test(output('gitFirstCommandMs'))) throw new Error(`git init said: ${output('gitFirstCommandMs')}`)
    if (!/modified:\s+src\/f1\.txt/.test(output(`gitStatus${FILES}FilesMs`))) throw new Error(`git status said: ${output(`gitStatus${FILES}FilesMs`)}`)
    if (!output(`gitDiff${FILES}FilesMs`).includes('-line 1 of file 1')) throw new Error(`git diff said: ${output(`gitDiff${FILES}FilesMs`)}`)
    if (!/[0-9a-f]{7} \(HEAD -> main\) second/.test(output('gitLogMs'))) throw new Error(`git log said: ${output('gitLogMs')}`)
    return figures
  } finally {
    await server.close()
  }
}
