// A session of 100,000 messages (issue 18): search's first page of hits for a common word, a rare word and a quoted
// phrase (cold: the first call after a reload; warm: the median of the calls after it), the session opened in the
// UI (click in the sidebar until its newest message is on screen) and exported, with the page's JS heap after the
// export arrived. Seeded through writeFixture, so every row also goes through the search index as the app writes it.
import { check, median, seed, waitForHook } from './page.mjs'
import { sessionRow } from './rows.mjs'
import { randomInt } from 'node:crypto'
import { size } from './size.mjs'

export const HUGE_MESSAGES = size(100_000, 2_000)
const CHUNK = 2_000
const WARM_RUNS = size(9, 1)
const SETTLE_MS = 500
const TITLE = 'Huge bench session'

// Ids as src/core/id.ts makes them (12 hex digits of ms, a counter, 10 base62), so parts sort after their message.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const id = (prefix, time) => `${prefix}_${time.toString(16).padStart(12, '0')}0000${Array.from({ length: 10 }, () => BASE62[randomInt(62)]).join('')}`
const emptyTokens = () => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } })

// A few thousand made-up words drawn with a skew, as prose has: some in nearly every message, most in a few.
const SYLLABLES = 'ka lo mi ne ru sa te vo zi pa qua dre fli gon hel'.split(' ')
const VOCABULARY = Array.from({ length: 3_000 }, (_, i) => SYLLABLES[i % 15] + SYLLABLES[(i * 7 + 3) % 15] + (i >= 225 ? SYLLABLES[(i * 11 + 5) % 15] + (i % 97) : ''))
const COMMON = ['the', 'file', 'test', 'error', 'function', 'returns', 'value']
let prng = 42
const next = () => (prng = (prng * 48_271) % 2_147_483_647)
const word = () => (next() % 3 === 0 ? COMMON[next() % COMMON.length] : VOCABULARY[Math.floor(VOCABULARY.length * (next() / 2_147_483_647) ** 3)])

export const QUERIES = {
  common: 'error',
  // Only in three old messages: the scan before the index had to read almost every part to find them.
  rare: 'marmalade',
  phrase: '"token stall"',
}
// 17, 5,003 and 33,333 in the full run; as far apart in a smoke run's smaller session.
const RARE_AT = new Set([17, Math.round(HUGE_MESSAGES * 0.05003), Math.floor(HUGE_MESSAGES / 3)])
const PHRASE_EVERY = size(997, 37) // at least 50 hits, a full first page, in either size

function messageText(i) {
  const words = [`Message ${i}:`]
  const length = 12 + (next() % 40)
  for (let w = 0; w < length; w++) words.push(word())
  if (RARE_AT.has(i)) words.splice(5, 0, 'marmalade')
  if (i % PHRASE_EVERY === 0) words.splice(3, 0, 'the token stall')
  return words.join(' ')
}

function chunks(projectID, version) {
  const now = Date.now()
  const session = sessionRow(projectID, version, TITLE, now - 60_000)
  const start = now - 3_600_000 - HUGE_MESSAGES * 5_000
  const out = []
  let lastUser
  for (let from = 0; from < HUGE_MESSAGES; from += CHUNK) {
    const messages = []
    const parts = []
    for (let i = from; i < Math.min(HUGE_MESSAGES, from + CHUNK); i++) {
      const t = start + i * 5_000
      const base = { id: id('msg', t), sessionID: session.id, agent: 'build' }
      if (i % 2 === 0) {
        messages.push({ ...base, role: 'user', time: { created: t }, model: { providerID: 'openai', modelID: 'gpt-bench' } })
        lastUser = base.id
      } else {
        messages.push({
          ...base, role: 'assistant', time: { created: t, completed: t + 3 }, parentID: lastUser, mode: 'build',
          modelID: 'gpt-bench', providerID: 'openai', path: { cwd: '/workspace', root: '/workspace' },
          cost: 0, tokens: emptyTokens(), finish: 'stop',
        })
      }
      parts.push({ id: id('prt', t + 1), sessionID: session.id, messageID: base.id, type: 'text', text: messageText(i) })
    }
    out.push({ sessions: out.length === 0 ? [session] : [], messages, parts })
  }
  return { session, chunks: out }
}

/** Reloads, then times `api.searchSessions` for one query: the first call, then the median of WARM_RUNS more. */
async function timeSearch(page, query) {
  await page.reload()
  await waitForHook(page)
  await page.waitForTimeout(SETTLE_MS)
  const { times, hits } = await page.evaluate(async ([q, runs]) => {
    const times = []
    let hits
    while (times.length < runs) {
      const t0 = performance.now()
      hits = await window.__tabcode.api.searchSessions({ query: q })
      times.push(performance.now() - t0)
    }
    return { times, hits: hits.length }
  }, [query, 1 + WARM_RUNS])
  return { cold: times[0], warm: median(times.slice(1)), hits }
}

export async function hugeSession(page, log) {
  const { version, projectID } = await page.evaluate(() => ({ version: window.__tabcode.version, projectID: window.__tabcode.projectID }))
  const { session, chunks: rows } = chunks(projectID, version)
  const seedMs = await seed(page, rows)
  log(`  wrote ${HUGE_MESSAGES} messages in ${(seedMs / 1000).toFixed(1)} s (writeFixture, indexed as written)`)
  const figures = { seedMs_100kMessages: Math.round(seedMs) }

  for (const [kind, query] of Object.entries(QUERIES)) {
    const { cold, warm, hits } = await timeSearch(page, query)
    const expected = kind === 'rare' ? RARE_AT.size : 50
    check(hits === expected, `search ${query} found ${hits} hits, expected ${expected}`)
    log(`  search ${query}: cold ${cold.toFixed(1)} ms, warm median ${warm.toFixed(1)} ms, ${hits} hits`)
    Object.assign(figures, { [`searchFirstPageMs_100kMessages_${kind}`]: cold, [`searchFirstPageWarmMs_100kMessages_${kind}`]: warm })
  }

  // Open it in the UI: from the click on its link until the newest message is on screen.
  await page.reload()
  await waitForHook(page)
  const link = page.getByRole('link', { name: new RegExp(`^${TITLE}`) })
  await link.waitFor({ timeout: 30_000 })
  const newest = `Message ${HUGE_MESSAGES - 1}:`
  const t0 = Date.now()
  await link.click()
  await page.getByText(newest).first().waitFor({ timeout: 60_000 })
  figures.openSessionMs_100kMessages = Date.now() - t0
  log(`  opened in ${figures.openSessionMs_100kMessages} ms (click to newest message on screen, Playwright's clock)`)

  const exported = await page.evaluate(async (sessionID) => {
    const t0 = performance.now()
    const file = await window.__tabcode.api.exportSession({ sessionID })
    const ms = performance.now() - t0
    const size = file.data.size
    return { ms, size, heap: performance.memory?.usedJSHeapSize ?? 0 }
  }, session.id)
  check(exported.size > HUGE_MESSAGES * 100, `the export holds ${exported.size} bytes, too few for ${HUGE_MESSAGES} messages`)
  log(`  exported ${(exported.size / 2 ** 20).toFixed(1)} MB in ${exported.ms.toFixed(0)} ms; page heap after ${(exported.heap / 2 ** 20).toFixed(1)} MB`)
  Object.assign(figures, { exportMs_100kMessages: exported.ms, exportMB_100kMessages: exported.size / 2 ** 20, exportPageHeapMB_100kMessages: exported.heap / 2 ** 20 })
  return figures
}
