// Request building (issue 15): what one step costs between loading the history and calling doStream, for a
// 2,000-message session. buildRequest (compaction filter, toModelMessages, system prompt) and withPromptCaching
// (Anthropic breakpoints) are the figure with the target; the AI SDK's own prompt conversion that model-call.ts runs
// next is shown for information. Runs in Node: the TypeScript is compiled into one module with the repo's vite, as
// scripts/interop.mjs does, so no browser is needed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { size } from './size.mjs'

export const REQUEST_MESSAGES = size(2_000, 200)
const WARMUP_RUNS = 5
const RUNS = 21
// Claude, so the caching transform does its most work (breakpoints on the system prompt and the last two messages).
const MODEL = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }
const PROVIDER = 'anthropic.messages'

async function loadModules(root, folder) {
  const { build } = await import('vite')
  const entry = join(folder, 'entry.ts')
  writeFileSync(
    entry,
    [
      `export { buildRequest } from ${JSON.stringify(join(root, 'src/session/compaction/request.ts'))}`,
      `export { withPromptCaching } from ${JSON.stringify(join(root, 'src/session/prompt-cache.ts'))}`,
      `export { AGENTS } from ${JSON.stringify(join(root, 'src/core/agent.ts'))}`,
      `export { makeIdGenerator } from ${JSON.stringify(join(root, 'src/core/id.ts'))}`,
      `export { MessageSchema, PartSchema } from ${JSON.stringify(join(root, 'src/core/schema/index.ts'))}`,
      // By path: the entry sits in a temporary folder, where the repo's node_modules cannot be found.
      `export { convertToLanguageModelPrompt, standardizePrompt } from ${JSON.stringify(fileURLToPath(import.meta.resolve('ai/internal')))}`,
    ].join('\n'),
  )
  await build({
    configFile: false,
    root,
    logLevel: 'error',
    ssr: { noExternal: true },
    build: { ssr: entry, outDir: join(folder, 'out'), emptyOutDir: true, minify: false, rolldownOptions: { output: { entryFileNames: 'request.mjs' } } },
  })
  return import(pathToFileURL(join(folder, 'out', 'request.mjs')).href)
}

const words = (count, seed) => Array.from({ length: count }, (_, index) => ['the', 'file', 'greet', 'test', 'call', 'value', 'render', 'state'][(index * 7 + seed) % 8]).join(' ')

/**
 * A session as a long coding session stores it: each prompt answered by a reply with reasoning (signed, as Claude's),
 * a tool call with a few KB of output, and text, then a step-finish with usage. Every row is checked against our
 * schemas, so the bench measures the shapes the app stores.
 */
export function longSession({ makeIdGenerator, MessageSchema, PartSchema }, messages = REQUEST_MESSAGES) {
  const ids = makeIdGenerator()
  let time = Date.UTC(2026, 10, 30, 9)
  const tick = () => (time += 37)
  const sessionID = ids.descending('session', time)
  const history = []
  const tools = [
    ['read', (n) => ({ filePath: `/workspace/src/module-${n}.ts` }), (n) => Array.from({ length: 60 }, (_, line) => `${line + 1}: export const value${line} = ${n} // ${words(6, line)}`).join('\n')],
    ['bash', () => ({ command: 'npm test', description: 'Run the tests' }), (n) => Array.from({ length: 40 }, (_, line) => `✓ test ${n}.${line} ${words(5, line)}`).join('\n')],
    ['grep', (n) => ({ pattern: `value${n % 60}` }), (n) => Array.from({ length: 30 }, (_, line) => `/workspace/src/module-${line}.ts:${n % 60}: export const value${n % 60}`).join('\n')],
  ]
  for (let turn = 0; history.length < messages; turn++) {
    const user = { id: ids.ascending('message', tick()), sessionID, role: 'user', time: { created: time }, agent: 'build', model: MODEL }
    const part = (messageID, fields) => PartSchema.parse({ id: ids.ascending('part', tick()), sessionID, messageID, ...fields })
    history.push({ info: MessageSchema.parse(user), parts: [part(user.id, { type: 'text', text: `Turn ${turn}: ${words(40, turn)}` })] })
    const created = tick()
    const tokens = { input: 40_000 + turn * 20, output: 400, reasoning: 120, cache: { read: 38_000, write: 1_200 } }
    const reply = {
      id: ids.ascending('message', created),
      sessionID,
      role: 'assistant',
      time: { created, completed: created + 2_000 },
      parentID: user.id,
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: 'build',
      mode: 'build',
      path: { cwd: '/workspace', root: '/workspace' },
      cost: 0.02,
      tokens,
      finish: 'stop',
    }
    const [tool, input, output] = tools[turn % tools.length]
    history.push({
      info: MessageSchema.parse(reply),
      parts: [
        part(reply.id, { type: 'step-start' }),
        part(reply.id, {
          type: 'reasoning',
          text: words(90, turn + 1),
          metadata: { anthropic: { signature: 'sig'.repeat(100) + turn } },
          time: { start: time, end: time + 300 },
        }),
        part(reply.id, {
          type: 'tool',
          callID: `toolu_${turn}`,
          tool,
          state: { status: 'completed', input: input(turn), output: output(turn), title: tool, metadata: {}, time: { start: time, end: time + 80 } },
        }),
        part(reply.id, { type: 'text', text: words(60, turn + 2), time: { start: time, end: time + 100 } }),
        part(reply.id, { type: 'step-finish', reason: 'stop', cost: 0.02, tokens }),
      ],
    })
  }
  return history.slice(0, messages)
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** `requestBuildMedianMs_2kMessages` (the target) and, for information, the SDK's conversion after it and the two together. */
export async function requestBuilding(root, log) {
  const scratch = mkdtempSync(join(os.tmpdir(), 'tabcode-bench-request-'))
  try {
    const modules = await loadModules(root, scratch)
    const history = longSession(modules)
    const agent = modules.AGENTS.build
    const environment = { providerID: MODEL.providerID, modelID: MODEL.modelID, directory: '/workspace', backend: 'local', now: Date.UTC(2026, 10, 30, 12) }
    const sessionID = history[0].info.sessionID
    const build = () => {
      const request = modules.buildRequest({ history, model: MODEL, provider: PROVIDER, agent, environment, lastStep: false })
      return modules.withPromptCaching({ provider: PROVIDER, modelID: MODEL.modelID }, request.system, request.messages, sessionID)
    }
    const convert = async (cached) => {
      const standardized = await modules.standardizePrompt({ system: cached.system, messages: cached.messages })
      return modules.convertToLanguageModelPrompt({ prompt: standardized, supportedUrls: {}, download: undefined, provider: 'anthropic' })
    }
    const buildTimes = []
    const convertTimes = []
    const totalTimes = []
    let sent = 0
    for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
      const started = performance.now()
      const cached = build()
      const built = performance.now()
      const prompt = await convert(cached)
      const converted = performance.now()
      if (run >= WARMUP_RUNS) {
        buildTimes.push(built - started)
        convertTimes.push(converted - built)
        totalTimes.push(converted - started)
      }
      sent = prompt.length
    }
    // Nothing is compacted: every stored message is sent (a reply with a tool call as two, the call and its result).
    if (sent <= REQUEST_MESSAGES) throw new Error(`the request holds ${sent} messages, fewer than the ${REQUEST_MESSAGES} stored`)
    log(`  build ${buildTimes.map((t) => t.toFixed(1)).join(' ')} ms`)
    return {
      requestBuildMedianMs_2kMessages: median(buildTimes),
      requestConvertMedianMs_2kMessages: median(convertTimes),
      requestTotalMedianMs_2kMessages: median(totalTimes),
      requestParts_2kMessages: history.reduce((total, message) => total + message.parts.length, 0),
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
