// A first visit (issue 18): a fresh browser context each run (no service worker yet, no data, empty HTTP cache),
// service workers allowed, unlike the other sections, since installing one is part of a first visit.
// - firstVisitUsablePromptMs: navigation start → the prompt box is enabled and the session list is on screen, read
//   in the page (performance.now() counts from navigation start) by a check run on every animation frame. A first
//   visit has no session, so the check presses New session as soon as it can be pressed, as a person would.
// - firstVisitLongTasks / firstVisitLongestTaskMs: the page's main-thread tasks over 50 ms until the page has been
//   quiet for a while after the service worker took control, from the Long Tasks API (observed from the first
//   script on) and from a Chromium trace (the renderer's main thread: parse, compile and layout count there too,
//   which the API may attribute late); the larger of the two is reported. The worker threads' longest task is
//   reported apart, for information.
// - precacheGzipKB: the gzip size of every file the built service worker precaches (its manifest in dist/sw.js).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { median } from './page.mjs'
import { size } from './size.mjs'

const RUNS = size(5, 1)
const LONG_MS = 50
const TRACE_CATEGORIES = ['toplevel', 'disabled-by-default-devtools.timeline', ...(process.env.BENCH_TRACE_DETAIL ? ['devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'] : [])]
let savedTraces = 0

/** The URLs in the generated service worker's precache manifest, and their gzip size in KB. */
export function precacheSize(root) {
  const sw = readFileSync(join(root, 'dist', 'sw.js'), 'utf8')
  const urls = [...new Set([...sw.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]))]
  let bytes = 0
  for (const url of urls) bytes += gzipSync(readFileSync(join(root, 'dist', url.split('?')[0]))).length
  return { urls, kb: bytes / 1024 }
}

function observeLongTasks() {
  window.__bootLongTasks = []
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bootLongTasks.push({ start: entry.startTime, ms: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // No Long Tasks API: the trace still counts.
  }
}

/**
 * Top-level tasks over 50 ms per thread kind, from a Chromium trace: those of the renderer that loaded `baseURL`.
 * The trace is browser-wide, and Chromium runs renderers of its own during a visit (its omnibox popup's WebUI,
 * about:blank): their main threads are `CrRendererMain` too, with module evaluations of 300 ms that are not ours.
 */
function traceTasks(trace, baseURL) {
  const events = JSON.parse(trace.toString()).traceEvents
  const threadNames = new Map()
  for (const event of events) if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, event.args.name)
  const pagePids = new Set()
  for (const event of events) {
    const url = event.args?.data?.url ?? event.args?.beginData?.url ?? event.args?.data?.documentLoaderURL
    if (typeof url === 'string' && url.startsWith(baseURL)) pagePids.add(event.pid)
  }
  const main = []
  let mainLongest = 0
  let workerLongest = 0
  for (const event of events) {
    if (event.ph !== 'X' || event.name !== 'ThreadControllerImpl::RunTask' || !event.dur) continue
    if (pagePids.size && !pagePids.has(event.pid)) continue
    const thread = threadNames.get(`${event.pid}:${event.tid}`) ?? ''
    const ms = event.dur / 1000
    if (thread === 'CrRendererMain') {
      mainLongest = Math.max(mainLongest, ms)
      if (ms > LONG_MS) main.push(ms)
    } else if (thread.startsWith('DedicatedWorker')) workerLongest = Math.max(workerLongest, ms)
  }
  return { main, mainLongest, workerLongest }
}

async function oneVisit(browser, baseURL) {
  const context = await browser.newContext()
  try {
    await context.addInitScript(observeLongTasks)
    const page = await context.newPage()
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    await page.goto(baseURL)
    const usableMs = await page.evaluate(
      () =>
        new Promise((resolve) => {
          // A first visit has no session: as a person would, press New session the moment it can be pressed.
          let pressed = false
          const check = () => {
            const prompt = document.querySelector('textarea.prompt-input')
            const sessions = document.querySelector('nav[aria-label="Sessions"]')
            if (prompt && !prompt.disabled && sessions) return resolve(performance.now())
            const create = [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'New session')
            if (!pressed && sessions && create && !create.disabled) {
              pressed = true
              create.click()
            }
            requestAnimationFrame(check)
          }
          check()
        }),
    )
    // The rest of a first visit: the service worker installs and takes control, then the idle-time work runs.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60_000 })
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          let last = performance.now()
          new PerformanceObserver(() => (last = performance.now())).observe({ type: 'resource' })
          const wait = () => (performance.now() - last > 1500 ? resolve() : setTimeout(wait, 100))
          wait()
        }),
    )
    const apiTasks = await page.evaluate(() => window.__bootLongTasks)
    const trace = await browser.stopTracing()
    // BENCH_TRACE_DIR=dir keeps each visit's trace (with BENCH_TRACE_DETAIL=1, what each long task did).
    if (process.env.BENCH_TRACE_DIR) {
      mkdirSync(process.env.BENCH_TRACE_DIR, { recursive: true })
      writeFileSync(join(process.env.BENCH_TRACE_DIR, `boot-${String(++savedTraces).padStart(2, '0')}.json`), trace)
    }
    const traced = traceTasks(trace, baseURL)
    const tasks = traced.main.length >= apiTasks.length ? traced.main : apiTasks.map((task) => task.ms)
    return { usableMs, tasks, longest: Math.max(traced.mainLongest, ...tasks, ...apiTasks.map((task) => task.ms)), workerLongest: traced.workerLongest }
  } finally {
    await context.close()
  }
}

export async function firstVisit(browser, baseURL, root, log) {
  const visits = []
  for (let run = 0; run < RUNS; run++) {
    const visit = await oneVisit(browser, baseURL)
    log(`boot: visit ${run + 1}: usable at ${visit.usableMs.toFixed(0)} ms, long tasks [${visit.tasks.map((ms) => ms.toFixed(0)).join(', ')}], worker's longest ${visit.workerLongest.toFixed(0)} ms`)
    visits.push(visit)
  }
  return {
    firstVisitUsablePromptMs: median(visits.map((visit) => visit.usableMs)),
    firstVisitLongTasks: median(visits.map((visit) => visit.tasks.length)),
    firstVisitLongestTaskMs: median(visits.map((visit) => visit.longest)),
    firstVisitWorkerLongestTaskMs: median(visits.map((visit) => visit.workerLongest)),
    precacheGzipKB: precacheSize(root).kb,
  }
}
