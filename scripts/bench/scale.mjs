// Scale targets (BENCHMARKS.md): the first screen of a 10,000-message session and the
// session list with 5,000 sessions, each timed cold (first call after a reload) and warm (median of 20 more).
import { check, median, seed, waitForHook } from './page.mjs'
import { messageChunk, sessionRows } from './rows.mjs'
import { size } from './size.mjs'

export const MESSAGES = size(10_000, 300)
export const SESSIONS = size(5_000, 100)
export const CHUNK = size(1_000, 100) // rows per writeFixture call: ~2 MB of parts, one transaction each
const WARM_RUNS = size(20, 1)
const SETTLE_MS = 500 // after the hook appears: the app's boot render and sidebar query are done well within this

/**
 * Reloads (new worker, Dexie opened afresh) and times `method(input)` in the page: the first call (cold), then the
 * median of WARM_RUNS more. `atBoot` fires the cold call the instant the hook appears (see pageSetup); otherwise it
 * waits until the app has finished booting, so its first render does not delay the reply being timed.
 */
async function coldThenWarm(page, method, input, { atBoot }) {
  if (atBoot) await page.evaluate((spec) => sessionStorage.setItem('bench:cold', spec), JSON.stringify({ method, input }))
  await page.reload()
  await waitForHook(page)
  if (!atBoot) await page.waitForTimeout(SETTLE_MS)
  const { times, first, last } = await page.evaluate(async ([m, i, runs]) => {
    const times = []
    let first, last
    if (window.__benchCold) ({ ms: times[0], result: first } = await window.__benchCold)
    while (times.length < runs) {
      const t0 = performance.now()
      last = await window.__tabcode.api[m](i)
      times.push(performance.now() - t0)
      first ??= last
    }
    return { times, first, last }
  }, [method, input, 1 + WARM_RUNS])
  return { cold: times[0], warm: median(times.slice(1)), results: [first, last] }
}

/** Writes the chunks through writeFixture, then reloads and times `method(input)` cold and warm. */
async function measure(page, chunks, what, method, input, options, log) {
  const seedMs = await seed(page, chunks)
  log(`  wrote ${what} in ${(seedMs / 1000).toFixed(1)} s (writeFixture, timed in the page)`)
  return { seedMs, ...(await coldThenWarm(page, method, input, options)) }
}

/** Seeds MESSAGES messages into `sessionID` and times the first screen. The session keeps them (streaming reuses it). */
export async function firstScreen(page, sessionID, log) {
  const state = {}
  const start = Date.now() - 86_400_000
  const chunks = Array.from({ length: MESSAGES / CHUNK }, (_, c) => messageChunk(sessionID, c * CHUNK, CHUNK, start, state))
  // After boot: target 7 is the worker's read, and the app reads no messages at boot (it opens a session only when
  // the URL names one, and ours names none), so the first call here is still the first read of messages and parts.
  const what = `${MESSAGES} messages + ${MESSAGES * 2} parts`
  const m = await measure(page, chunks, what, 'pageMessages', { sessionID, limit: 50 }, { atBoot: false }, log)
  check(!new URL(page.url()).hash, 'the page URL names a session, so the app may have read it at boot')
  for (const { messages } of m.results) {
    check(messages.length === 50, `pageMessages returned ${messages.length} messages, expected 50`)
    check(messages.every((x) => x.parts.length === 2), 'a message on the first screen does not have its 2 parts')
    check(messages.at(-1).info.id === state.lastMessage, 'the first screen does not end with the newest message')
  }
  return m
}

export async function sessionList(page, projectID, version, log) {
  const rows = sessionRows(projectID, version, Date.now() - 3_600_000, SESSIONS)
  const chunks = Array.from({ length: SESSIONS / CHUNK }, (_, c) => ({ sessions: rows.slice(c * CHUNK, (c + 1) * CHUNK) }))
  // At boot: the app's sidebar reads this very page while booting, so only a call fired ahead of it is cold.
  // It then shares the main thread with the first render, as the sidebar's own call does (target 8: "renders in").
  const m = await measure(page, chunks, `${SESSIONS} sessions`, 'listSessions', { limit: 50 }, { atBoot: true }, log)
  for (const { items } of m.results) {
    check(items.length === 50, `listSessions returned ${items.length} sessions, expected 50`)
    check(items.every((s, i) => i === 0 || s.time.updated < items[i - 1].time.updated), 'sessions are not newest first')
    const firstSeeded = items.find((s) => s.slug.startsWith('bench-'))
    check(firstSeeded?.id === rows.at(-1).id, 'the newest seeded session is not the first seeded one listed')
  }
  return m
}
