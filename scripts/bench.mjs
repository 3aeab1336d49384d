#!/usr/bin/env node
// `npm run bench [-- --json] [-- --no-build]`: times the project's speed targets (BENCHMARKS.md lists them) in
// headless Chromium against the production build, through the same worker RPC the UI uses (window.__tabcode,
// src/ui/app/test-hook.ts), with replies streamed by the scripted mock model server (test-servers/mock-model-server.mjs)
// through the real provider code. The pieces live in scripts/bench/; BENCHMARKS.md explains each figure.
// A missed target prints MISSED but is not an error: the exit code is non-zero only when something broke.
// Progress goes to stderr; stdout is the table and, with --json, one JSON line at the very end.
// `--only=scale` or `--only=streaming` runs one half, `--only=main-thread` only the longest-task stream, `--only=share`
// only the share-link and import figures, `--only=runtime` the offline workspace's runtimes (shell, node, git, preview,
// Python), `--only=request` the cost of building one step's request for a 2,000-message session (in Node, no
// browser), `--only=editor` the time to open a 5,000-line file in the editor (for working on the bench or on
// rendering; the JSON then lacks the rest), `--only=steps` a step's cost in sessions of 2 to 100,000 messages and the
// per-step overhead of a 20-step read turn (issue 18).
// `--only=delta` the main thread per streamed delta with the reply at 1 KB and at 200 KB; `--only=stop` how long Stop
// takes to clear (issue 20).
// `--only=huge` a 100,000-message session: search, open, export.
// `--only=usage` the usage view's query over 100,000 messages in several projects, models, agents and days (issue 33).
// `--only=disk` a folder on disk as a project (issue 30): listing a 5,000-file folder, a 20-step read turn on it
// against a stored project.
// `--only=sync` sync across devices (issue 31): the first sync of a 10,000-message coding session to a new device and
// one turn's rows, bytes and delay, through PouchDB Server in memory (test-servers/sync-server.mjs).
// `--smoke` (what `npm test` runs after the e2e suite): every section once on small sizes (scripts/bench/size.mjs),
// against the build the e2e step made; it fails when a section breaks, never because a figure is slow.
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test' // the declared devDependency; re-exports the `playwright` library
import { startMockModelServer } from '../test-servers/mock-model-server.mjs'
import { CHROMIUM_ARGS, findChromium } from './find-browser.mjs'
import { pageSetup, waitForHook } from './bench/page.mjs'
import { report, TARGETS, AT_LEAST } from './bench/report.mjs'
import { firstScreen, MESSAGES, sessionList } from './bench/scale.mjs'
import { requestBuilding } from './bench/request.mjs'
import { runtimes } from './bench/runtime.mjs'
import { shareAndImport } from './bench/share.mjs'
import { connectMockModel, MOCK_PORT, mainThread, perDeltaCost, prepare, throughput } from './bench/streaming.mjs'
import { editorOpen } from './bench/editor.mjs'
import { stopLatency } from './bench/stop.mjs'
import { steps } from './bench/steps.mjs'
import { deltaCost } from './bench/delta.mjs'
import { hugeSession } from './bench/huge.mjs'
import { firstVisit } from './bench/boot.mjs'
import { SMOKE } from './bench/size.mjs'
import { diskFolder } from './bench/disk.mjs'
import { syncCost } from './bench/sync.mjs'
import { usageQuery } from './bench/usage.mjs'

// Not imported from steps.mjs: that module installs signal handlers that would exit without our cleanup.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const VITE = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite')
const HOST = '127.0.0.1'
// Not 4173, so a bench can run while `playwright test` holds its own preview server; BENCH_PORT moves it.
const PORT = Number(process.env.BENCH_PORT ?? 4174)
const BASE_URL = `http://${HOST}:${PORT}/`
const JSON_OUT = process.argv.includes('--json')
const BUILD = !process.argv.includes('--no-build')
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length)
if (ONLY && !['scale', 'streaming', 'main-thread', 'share', 'runtime', 'request', 'editor', 'steps', 'delta', 'huge', 'boot', 'stop', 'disk', 'sync', 'usage'].includes(ONLY)) {
  throw new Error(`--only=${ONLY}: expected scale, streaming, main-thread, share, runtime, request, editor, steps, delta, huge, boot, stop, disk, sync or usage`)
}
const started = Date.now()
const log = (...args) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s]`, ...args)

// ── Processes: build, preview server, mock model server, browser ─────────────────────────────────────────────────
const exitOf = (child, what) =>
  new Promise((resolve, reject) => {
    child.on('error', (e) => reject(new Error(`could not start ${what}: ${e.message}`)))
    child.on('exit', resolve)
  })
const answers = (url) => fetch(url).then((r) => r.ok, () => false)

async function startPreview() {
  if (await answers(BASE_URL)) throw new Error(`something already answers on ${BASE_URL}; stop it first`)
  // The vite binary itself, not npx: killing a wrapper would orphan the server on the port.
  const args = ['preview', '--host', HOST, '--port', String(PORT), '--strictPort']
  const child = spawn(VITE, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  preview = { child, exited: exitOf(child, 'vite preview').catch(() => {}) }
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode}): ${stderr.trim()}`)
    if (await answers(BASE_URL)) return
  }
  throw new Error(`vite preview did not answer on ${BASE_URL} within 30 s`)
}

async function startMock() {
  // In this process: it goes when the bench goes, whatever happens.
  mock = await startMockModelServer({ port: MOCK_PORT, host: HOST }).catch((e) => {
    throw new Error(`could not start the mock model server on ${HOST}:${MOCK_PORT} (${e.code ?? e.message}); is the port taken?`)
  })
}

let preview, browser, mock
let interrupted = false
async function cleanup() {
  await browser?.close().catch(() => {})
  browser = undefined
  await mock?.close().catch(() => {})
  mock = undefined
  if (preview?.child.exitCode === null) {
    preview.child.kill('SIGTERM')
    await Promise.race([preview.exited, new Promise((r) => setTimeout(r, 5_000))])
    if (preview.child.exitCode === null) preview.child.kill('SIGKILL')
  }
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    interrupted = true
    log(`\nbench interrupted (${sig}); stopping the browser, the mock model server and the preview server`)
    cleanup().finally(() => process.exit(128 + os.constants.signals[sig]))
  })
}

/**
 * Which build is measured: the commit, uncommitted source changes, when dist/ was built and its entry chunk (not
 * with `dist: false`, for figures compiled from the sources).
 */
function describeBuild({ dist = true } = {}) {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    } catch {
      return ''
    }
  }
  const changed = git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length
  const source = `${git('rev-parse', '--short', 'HEAD') || 'no git'}${changed ? ` + ${changed} changed file(s) under src/` : ''}`
  if (!dist) return `${source}; compiled from src/`
  const html = join(ROOT, 'dist', 'index.html')
  const entry = readFileSync(html, 'utf8').match(/assets\/(index-[\w-]+\.js)/)?.[1] ?? 'unknown entry'
  const builtAt = statSync(html).mtime.toISOString()
  return `${source}; dist built ${builtAt}; ${entry}`
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const roundAll = (figures) =>
  Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, typeof v === 'number' ? round(v, k.includes('Ratio') ? 3 : 1) : v]))

function machine() {
  const cpus = os.cpus()
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`, cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length,
    memoryGB: round(os.totalmem() / 2 ** 30), node: process.version, ...(browser ? { chromium: browser.version() } : {}),
  }
}

async function main() {
  const figures = {}
  // In Node, from the sources: first, before the browser and servers compete for the machine; alone, it needs neither.
  if (!ONLY || ONLY === 'request') {
    log('request building, 2,000 messages…')
    Object.assign(figures, await requestBuilding(ROOT, log))
    if (ONLY) return { ...roundAll(figures), targets: TARGETS, targetsAtLeast: AT_LEAST, build: describeBuild({ dist: false }), date: new Date().toISOString(), machine: machine() }
  }
  if (BUILD) {
    log('vite build…')
    // Build output goes to stderr so stdout stays the report.
    const code = await exitOf(spawn(VITE, ['build'], { cwd: ROOT, stdio: ['ignore', 2, 2] }), 'vite build')
    if (code !== 0) throw new Error(`vite build failed (exit ${code})`)
  }
  const build = describeBuild()
  await startPreview()
  await startMock()
  const executablePath = findChromium()
  if (!executablePath) throw new Error('no Chromium found (see scripts/find-browser.mjs)')
  browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] })
  // First, in contexts of its own with service workers allowed (a first visit installs one).
  if (!ONLY || ONLY === 'boot') Object.assign(figures, await firstVisit(browser, BASE_URL, ROOT, log))
  const pageErrors = []
  // A browser context (its own storage) with the app loaded. No service worker: every reload then loads the page and
  // its worker from the preview server, as built.
  const openApp = async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    await context.addInitScript(pageSetup)
    const page = await context.newPage()
    page.on('pageerror', (e) => pageErrors.push(e.message))
    await page.goto(BASE_URL)
    await waitForHook(page)
    const ids = await page.evaluate(() => ({ version: window.__tabcode.version, projectID: window.__tabcode.projectID }))
    return { context, page, ...ids }
  }
  const { page, version, projectID } = await openApp()

  let tenK
  if (!ONLY || ONLY === 'scale') {
    // A real session: the long history goes into it, and its projectID is the default project listSessions filters by.
    const session = await page.evaluate(() => window.__tabcode.api.createSession({}))
    log('first screen…')
    const screen = await firstScreen(page, session.id, log)
    log('session list…')
    const list = await sessionList(page, session.projectID, version, log)
    Object.assign(figures, {
      firstScreenMs_10kMessages: screen.cold,
      firstScreenWarmMedianMs_10kMessages: screen.warm,
      sessionListMs_5kSessions: list.cold,
      sessionListWarmMedianMs_5kSessions: list.warm,
      seedMs_10kMessages: Math.round(screen.seedMs),
      seedMs_5kSessions: Math.round(list.seedMs),
    })
    tenK = { session, lastIndex: MESSAGES - 1 } // streamed into below, for the per-delta cost in a 10k session
  }
  if (!ONLY || ONLY === 'streaming' || ONLY === 'main-thread') {
    const where = { baseURL: BASE_URL, mockURL: mock.url }
    log('streaming: connecting the mock model server as a provider, seeding sessions…')
    await connectMockModel(page, mock.url)
    const sessions = await prepare(page, { projectID, version, tenK }, log)
    if (ONLY !== 'main-thread') {
      log('streaming: worker throughput and persistence…')
      const throughputFigures = await throughput(page, browser, where, log)
      log(`  ${JSON.stringify(roundAll(throughputFigures))}`)
      Object.assign(figures, throughputFigures)
    }
    log('streaming: main thread…')
    const mainThreadFigures = await mainThread(page, browser, where, sessions, log)
    log(`  ${JSON.stringify(roundAll(mainThreadFigures))}`)
    Object.assign(figures, mainThreadFigures)
    if (ONLY !== 'main-thread') {
      log('streaming: per-delta cost, 100 vs 10,000 messages…')
      Object.assign(figures, await perDeltaCost(page, browser, where, sessions, log))
    }
  }
  if (!ONLY || ONLY === 'steps') {
    log('steps: a 1-step turn in sessions of 2 to 100,000 messages, a 20-step read turn…')
    const providerID = await connectMockModel(page, mock.url)
    Object.assign(figures, await steps(page, browser, { baseURL: BASE_URL, mockURL: mock.url, providerID, projectID, version }, log))
  }
  if (!ONLY || ONLY === 'delta') {
    log('per-delta cost, reply at 1 KB and at 200 KB…')
    if (ONLY) await connectMockModel(page, mock.url)
    Object.assign(figures, await deltaCost(page, browser, { baseURL: BASE_URL, mockURL: mock.url }, { projectID, version }, log))
  }
  if (!ONLY || ONLY === 'stop') {
    log('stop: from the cancel to idle, a streaming reply and a spinning bash command…')
    const providerID = await connectMockModel(page, mock.url)
    Object.assign(figures, await stopLatency(page, { mockURL: mock.url, providerID }, log))
  }
  // Last: its sessions would otherwise sit among the seeded ones.
  if (!ONLY || ONLY === 'share') {
    log('share link and import…')
    Object.assign(figures, await shareAndImport(page, log))
  }
  if (!ONLY || ONLY === 'editor') {
    log('editor: opening a 5,000-line file…')
    Object.assign(figures, await editorOpen(page, log))
  }
  // The sections that seed a lot each get a browser context (storage) of their own: an off-the-record profile's quota
  // is a share of memory, and after two sessions of 100,000 messages the first context's storage is full.
  const inOwnContext = async (run) => {
    const { context, page: ownPage, version, projectID } = await openApp()
    try {
      return await run(ownPage, { version, projectID })
    } finally {
      await context.close()
    }
  }
  if (!ONLY || ONLY === 'huge') Object.assign(figures, await inOwnContext((ownPage) => hugeSession(ownPage, log)))
  if (!ONLY || ONLY === 'usage') {
    log('usage: tokens and cost over 100,000 messages, all time, the last 7 days, one project…')
    Object.assign(figures, await inOwnContext((ownPage) => usageQuery(ownPage, log)))
  }
  if (!ONLY || ONLY === 'disk') {
    log('disk: listing a 5,000-file folder, a 20-step read turn on a folder project and on a stored one…')
    const diskFigures = await inOwnContext(async (ownPage) => {
      const providerID = await connectMockModel(ownPage, mock.url)
      return await diskFolder(ownPage, { baseURL: BASE_URL, mockURL: mock.url, providerID }, log)
    })
    Object.assign(figures, diskFigures)
  }
  if (!ONLY || ONLY === 'sync') {
    log('sync: the first sync of a 10,000-message session to a new device, then one turn…')
    const syncFigures = await inOwnContext(async (ownPage, ids) => {
      const providerID = await connectMockModel(ownPage, mock.url)
      return await syncCost(ownPage, browser, { root: ROOT, baseURL: BASE_URL, mockURL: mock.url, providerID, ...ids }, log)
    })
    Object.assign(figures, syncFigures)
  }
  // After everything else: the preview and Python parts switch project and reload the page.
  if (!ONLY || ONLY === 'runtime') Object.assign(figures, await runtimes(page, log))
  if (pageErrors.length) log(`page errors during the run (not fatal):\n  ${pageErrors.join('\n  ')}`)

  const { perDeltaRuns, ...numbers } = figures
  return {
    ...roundAll(numbers),
    ...(perDeltaRuns ? { perDeltaRuns: Object.fromEntries(Object.entries(perDeltaRuns).map(([k, runs]) => [k, runs.map(roundAll)])) } : {}),
    targets: TARGETS,
    targetsAtLeast: AT_LEAST,
    build,
    date: new Date().toISOString(),
    machine: machine(),
  }
}

let exitCode = 0
try {
  const figures = await main()
  await cleanup() // first, so nothing the browser or servers print can land after the JSON line
  // Small sizes measure nothing: a smoke run only shows that every section still runs to its end.
  if (SMOKE) console.log(`bench smoke: every section ran (${Object.keys(figures).length} figures, not judged)`)
  else report(figures)
  if (JSON_OUT) console.log(JSON.stringify(figures))
} catch (error) {
  // After a signal the error is just the browser going away under a pending call.
  if (!interrupted) log(`\nbench failed: ${error?.stack ?? error}`)
  exitCode = 1
} finally {
  await cleanup()
}
process.exit(exitCode)
