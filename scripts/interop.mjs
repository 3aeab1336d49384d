#!/usr/bin/env node
// `npm run interop`: checks that the real opencode CLI imports what toOpencodeExport writes, and that `opencode export`
// then gives back the same conversation (messages, parts, text, reasoning, tool calls with their input, output and
// errors, usage and cost, in order). Not part of `npm test`: it needs the opencode binary, which the project does not
// depend on. Cases: every real export in e2e/fixtures/opencode/ read through fromOpencodeExport, and a session written
// here in our own format (with a child session, as a `task` call makes).
//
// The binary: the repo's own (`npx --no-install opencode`) if installed, else $OPENCODE_BIN, else
// /tmp/oc/node_modules/.bin/opencode (`npm install opencode-ai` in /tmp/oc). opencode runs with HOME and the XDG
// folders in a fresh temporary folder, so nothing of this machine's opencode is read or changed.
// Prints PASS/FAIL per case; exits 1 when any case fails, 2 when opencode cannot be found.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const FIXTURES = join(ROOT, 'e2e', 'fixtures', 'opencode')
// The machine may be busy; opencode itself takes a few seconds to start.
const COMMAND_TIMEOUT_MS = 180_000

function run(file, args, options) {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, timeout: COMMAND_TIMEOUT_MS, ...options }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr, error }),
    )
  })
}

async function findOpencode() {
  const local = join(ROOT, 'node_modules', '.bin', 'opencode')
  if (existsSync(local)) return { file: 'npx', prefix: ['--no-install', 'opencode'], label: 'npx --no-install opencode' }
  const candidates = [process.env.OPENCODE_BIN, '/tmp/oc/node_modules/.bin/opencode'].filter(Boolean)
  for (const file of candidates) if (existsSync(file)) return { file, prefix: [], label: file }
  return undefined
}

/** Compiles the converters (TypeScript) into one ES module with the repo's own vite, and loads it. */
async function loadConverters(folder) {
  const { build } = await import('vite')
  mkdirSync(folder, { recursive: true })
  const entry = join(folder, 'entry.ts')
  writeFileSync(
    entry,
    [
      `export * from ${JSON.stringify(join(ROOT, 'src/share/opencode/index.ts'))}`,
      `export { makeIdGenerator } from ${JSON.stringify(join(ROOT, 'src/session/id.ts'))}`,
      `export { SessionTranscriptSchema } from ${JSON.stringify(join(ROOT, 'src/share/format.ts'))}`,
    ].join('\n'),
  )
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'error',
    // Everything in one file: the output lives in a temporary folder, where node_modules cannot be resolved.
    ssr: { noExternal: true },
    build: { ssr: entry, outDir: join(folder, 'out'), emptyOutDir: true, minify: false, rolldownOptions: { output: { entryFileNames: 'converters.mjs' } } },
  })
  return import(pathToFileURL(join(folder, 'out', 'converters.mjs')).href)
}

// ── A session written in our format ─────────────────────────────────────────────────────────────────────────────
function nativeTranscript({ makeIdGenerator }) {
  const ids = makeIdGenerator()
  let time = Date.UTC(2026, 10, 30, 10)
  const tick = () => (time += 211)
  const sessionID = ids.descending('session', time)
  const childID = ids.descending('session', time + 5_000)
  const usage = (input, output, reasoning = 0) => ({ input, output, reasoning, cache: { read: 100, write: 0 } })
  const user = { id: ids.ascending('message', tick()), sessionID, role: 'user', time: { created: time }, agent: 'build', model: { providerID: 'openai', modelID: 'gpt-5' } }
  const part = (messageID, fields) => ({ id: ids.ascending('part', tick()), sessionID, messageID, ...fields })
  const assistant = (fields) => ({
    id: ids.ascending('message', tick()),
    sessionID,
    role: 'assistant',
    time: { created: time, completed: time + 1_500 },
    parentID: user.id,
    modelID: 'gpt-5',
    providerID: 'openai',
    agent: 'build',
    path: { cwd: '/workspace', root: '/workspace' },
    ...fields,
  })
  const first = assistant({ cost: 0.021, tokens: usage(3_000, 120, 64), finish: 'tool-calls' })
  const second = assistant({ cost: 0.009, tokens: usage(3_400, 40), finish: 'stop' })
  const messages = [
    { info: user, parts: [part(user.id, { type: 'text', text: 'Add a greeting to hello.txt and run the tests.' })] },
    {
      info: first,
      parts: [
        part(first.id, { type: 'step-start' }),
        part(first.id, { type: 'reasoning', text: 'Write the file, then try the tests.', time: { start: time, end: time + 40 } }),
        part(first.id, {
          type: 'tool',
          callID: 'call_w',
          tool: 'write',
          state: { status: 'completed', input: { filePath: '/workspace/hello.txt', content: 'Hello, world\n' }, output: 'Wrote file successfully.', title: 'hello.txt', metadata: { exists: false }, time: { start: time, end: time + 30 } },
        }),
        part(first.id, {
          type: 'tool',
          callID: 'call_b',
          tool: 'bash',
          state: { status: 'error', input: { command: 'npm test', description: 'Run the tests' }, error: 'npm needs WebContainer, which is not available offline.', time: { start: time, end: time + 8 } },
        }),
        part(first.id, {
          type: 'tool',
          callID: 'call_t',
          tool: 'task',
          state: { status: 'completed', input: { description: 'Review', prompt: 'Review hello.txt', subagent_type: 'general' }, output: 'Looks good.', title: 'Review', metadata: { sessionId: childID }, time: { start: time, end: time + 900 } },
        }),
        part(first.id, { type: 'step-finish', reason: 'tool-calls', cost: 0.021, tokens: usage(3_000, 120, 64) }),
      ],
    },
    {
      info: second,
      parts: [
        part(second.id, { type: 'step-start' }),
        part(second.id, { type: 'text', text: 'Done: `hello.txt` greets the world. The tests need WebContainer to run.', time: { start: time, end: time + 90 } }),
        part(second.id, { type: 'step-finish', reason: 'stop', cost: 0.009, tokens: usage(3_400, 40) }),
      ],
    },
  ]
  const info = {
    id: sessionID,
    slug: 'steady-heron',
    projectID: 'prj_interop',
    directory: '/workspace',
    title: 'Greeting in hello.txt',
    version: '0.1.0',
    agent: 'build',
    model: { providerID: 'openai', modelID: 'gpt-5' },
    cost: 0.03,
    tokens: { input: 6_400, output: 160, reasoning: 64, cache: { read: 200, write: 0 } },
    time: { created: user.time.created - 100, updated: time },
  }
  const childUser = { ...user, id: ids.ascending('message', tick()), sessionID: childID, agent: 'general' }
  const childAnswer = { ...assistant({ cost: 0.001, tokens: usage(500, 4), finish: 'stop' }), sessionID: childID, parentID: childUser.id, agent: 'general' }
  const child = {
    info: { ...info, id: childID, parentID: sessionID, title: 'Review (@general subagent)', cost: 0.001, tokens: usage(500, 4) },
    messages: [
      { info: childUser, parts: [{ ...part(childUser.id, { type: 'text', text: 'Review hello.txt' }), sessionID: childID }] },
      { info: childAnswer, parts: [{ ...part(childAnswer.id, { type: 'text', text: 'Looks good.' }), sessionID: childID }] },
    ],
  }
  return { info, messages, children: [child] }
}

// ── Comparing what went in with what came back ───────────────────────────────────────────────────────────────────
/** The conversation as a user sees it, and the usage: what must survive opencode's import and export. */
function conversation(document) {
  return document.messages.map(({ info, parts }) => ({
    id: info.id,
    role: info.role,
    ...(info.role === 'assistant' ? { cost: info.cost, tokens: info.tokens, finish: info.finish, error: info.error?.name } : {}),
    parts: parts.map((part) => {
      const base = { id: part.id, type: part.type }
      if (part.type === 'text' || part.type === 'reasoning') return { ...base, text: part.text }
      if (part.type === 'tool') {
        const { status, input, output, error } = part.state
        return { ...base, tool: part.tool, callID: part.callID, status, input, output, error }
      }
      if (part.type === 'step-finish') return { ...base, reason: part.reason, cost: part.cost, tokens: part.tokens }
      return base
    }),
  }))
}

function firstDifference(expected, actual, path = '') {
  if (isDeepStrictEqual(expected, actual)) return undefined
  if (typeof expected !== 'object' || typeof actual !== 'object' || expected === null || actual === null) {
    return `${path || '(root)'}: expected ${JSON.stringify(expected)?.slice(0, 200)}, got ${JSON.stringify(actual)?.slice(0, 200)}`
  }
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const found = firstDifference(expected[key], actual[key], path ? `${path}.${key}` : key)
    if (found) return found
  }
  return `${path}: differs`
}

async function main() {
  const opencode = await findOpencode()
  if (!opencode) {
    console.error(
      'interop: no opencode binary found. Install it outside the repo (mkdir -p /tmp/oc && cd /tmp/oc && npm install opencode-ai),\n' +
        'or point OPENCODE_BIN at one. Looked for node_modules/.bin/opencode, $OPENCODE_BIN and /tmp/oc/node_modules/.bin/opencode.',
    )
    process.exit(2)
  }
  const scratch = mkdtempSync(join(os.tmpdir(), 'tabcode-interop-'))
  const home = join(scratch, 'home')
  const project = join(scratch, 'project')
  for (const folder of [home, project]) mkdirSync(folder, { recursive: true })
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_PURE: '1',
  }
  const opencodeRun = (args) => run(opencode.file, [...opencode.prefix, ...args], { cwd: project, env })

  const version = await opencodeRun(['--version'])
  console.log(`opencode ${version.stdout.trim() || '(version unknown)'} via ${opencode.label}; scratch ${scratch}`)
  const converters = await loadConverters(join(scratch, 'build'))

  const cases = []
  for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.json')).sort()) {
    cases.push({ name: `fixture ${name}`, transcript: () => converters.fromOpencodeExport(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))) })
  }
  cases.push({ name: 'native session with a child', transcript: () => converters.SessionTranscriptSchema.parse(nativeTranscript(converters)) })

  let failed = 0
  for (const testCase of cases) {
    const problems = []
    try {
      const documents = converters.toOpencodeExports(testCase.transcript())
      for (const [index, document] of documents.entries()) {
        const file = join(scratch, `case-${cases.indexOf(testCase)}-${index}.json`)
        writeFileSync(file, JSON.stringify(document, null, 2))
        const imported = await opencodeRun(['import', file])
        const said = /Imported session: (\S+)/.exec(imported.stdout)?.[1]
        if (imported.code !== 0 || said !== document.info.id) {
          problems.push(`import of ${document.info.id} failed (exit ${imported.code}): ${(imported.stdout + imported.stderr).trim().slice(-600)}`)
          continue
        }
        const exported = await opencodeRun(['export', document.info.id])
        let back
        try {
          back = JSON.parse(exported.stdout)
        } catch {
          problems.push(`export of ${document.info.id} gave no JSON (exit ${exported.code}): ${exported.stderr.trim().slice(-600)}`)
          continue
        }
        const difference = firstDifference(conversation(document), conversation(back))
        if (difference) problems.push(`${document.info.id}: ${difference}`)
        if (back.info.title !== document.info.title || back.info.parentID !== document.info.parentID) {
          problems.push(`${document.info.id}: session title or parent changed (${back.info.title}, ${back.info.parentID})`)
        }
        // And back into ours: the same messages as before opencode saw them.
        const ours = converters.fromOpencodeExport(back)
        const expected = converters.fromOpencodeExport(JSON.parse(JSON.stringify(document)))
        const oursDifference = firstDifference(JSON.parse(JSON.stringify(expected.messages)), JSON.parse(JSON.stringify(ours.messages)))
        if (oursDifference) problems.push(`${document.info.id} read back into tabcode: ${oursDifference}`)
      }
    } catch (error) {
      problems.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
    }
    if (problems.length) failed++
    console.log(`${problems.length ? 'FAIL' : 'PASS'}  ${testCase.name}`)
    for (const problem of problems) console.log(`      ${problem}`)
  }
  // Kept on failure: the written documents and opencode's database are what one looks at next.
  if (failed) console.log(`scratch folder kept: ${scratch}`)
  else rmSync(scratch, { recursive: true, force: true })
  console.log(`${cases.length - failed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

main().catch((error) => {
  console.error('interop: ' + (error instanceof Error ? (error.stack ?? error.message) : String(error)))
  process.exit(1)
})
