#!/usr/bin/env node
// `npm run interop`: checks that the real opencode CLI imports what toOpencodeExport writes, and that `opencode export`
// then gives back the same messages and parts, field for field, in order, and that reading it back into tabcode gives
// the same rows as before. Not part of `npm test`: it needs the opencode binary, which the project does not depend on.
// Cases: every real export in e2e/testing/opencode/ read through fromOpencodeExport, and sessions written
// in our own format (scripts/interop/sessions.mjs): tool calls completed and errored, an aborted turn, a fork, a
// compaction, and subtasks with their child sessions.
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
import { NATIVE_SESSIONS } from './interop/sessions.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const FIXTURES = join(ROOT, 'e2e', 'testing', 'opencode')
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
      `export { makeIdGenerator } from ${JSON.stringify(join(ROOT, 'src/core/id.ts'))}`,
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

// ── Comparing what went in with what came back ───────────────────────────────────────────────────────────────────
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
  for (const [name, build] of NATIVE_SESSIONS) {
    cases.push({ name: `native: ${name}`, transcript: () => converters.SessionTranscriptSchema.parse(build(converters)) })
  }

  let failed = 0
  for (const testCase of cases) {
    const problems = []
    try {
      const transcript = testCase.transcript()
      // The sessions in the order toOpencodeExports writes them: each document's rows as we had them.
      const flatten = (node) => [node, ...(node.children ?? []).flatMap(flatten)]
      const sessions = flatten(transcript)
      const documents = converters.toOpencodeExports(transcript)
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
        // Field for field: opencode keeps every row as written (ids, times, errors, metadata, compaction and subtask
        // parts), so any change is something its import rewrote or dropped.
        const difference = firstDifference(JSON.parse(JSON.stringify(document.messages)), back.messages)
        if (difference) problems.push(`${document.info.id}: ${difference}`)
        if (back.info.title !== document.info.title || back.info.parentID !== document.info.parentID) {
          problems.push(`${document.info.id}: session title or parent changed (${back.info.title}, ${back.info.parentID})`)
        }
        // And back into ours: the same rows as before they were converted and opencode saw them.
        const ours = converters.fromOpencodeExport(back)
        const expected = sessions[index]
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
