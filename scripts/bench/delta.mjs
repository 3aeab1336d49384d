// `--only=delta` (issue 18): main-thread CPU per streamed delta into an open session while the reply is 1 KB long and
// while it is 200 KB long. Flat means a delta costs the same whatever came before it in the reply.
import { check, median, seed } from './page.mjs'
import { replyText, seededSession } from './rows.mjs'
import { COST_RUNS, control, openSession, stream } from './streaming.mjs'
import { busyMs, startTrace, stopTrace } from './trace.mjs'

const DELTA_CHARS = 4
// Per size: the prefix, and which part of the 3,000 paced deltas after it is timed (1,500 of them, ~500 ms). The page
// renders a prefix as one piece first (a one-off no stream has) and the deltas queued behind it come bunched, so the
// 200 KB window starts later, ~800 ms after its prefix; the 1 KB one soon after its prefix, while the reply is small.
const SIZES = { '1KB': { prefix: 1_024, window: [0.1, 0.6] }, '200KB': { prefix: 204_800, window: [0.4, 0.9] } }
const WINDOW_DELTAS = 3_000
// A window reaching the page in under this came bunched up behind a busy main thread (the page had not caught up
// with the stream): it would time nothing, so the run counts as failed.
const MIN_WINDOW_MS = 250
const ATTEMPTS = 3
// The prefix goes out in pieces this large (one or two network writes), so its own cost stays out of the window.
const PREFIX_PIECE = 4_096
const PACE = { chunkDelayMs: 16, eventsPerWrite: 50 } // ~3,000 deltas/s, as the streaming section offers
const SESSION_MESSAGES = 100

/** One run: a reply of `prefix` characters sent at once, then WINDOW_DELTAS paced deltas; µs per delta in `window`. */
async function run(page, browser, { baseURL, mockURL }, seeded, { prefix, window }, tag) {
  await openSession(page, baseURL, seeded)
  const { text, marker } = replyText(prefix / DELTA_CHARS + WINDOW_DELTAS, DELTA_CHARS, tag)
  const chunks = [{ text: text.slice(0, prefix), split: PREFIX_PIECE }, { text: text.slice(prefix), split: DELTA_CHARS }]
  await control(mockURL, '/__reset')
  await control(mockURL, '/__script', { model: 'mock-model', responses: [{ type: 'stream', chunks, ...PACE }] })
  const paced = WINDOW_DELTAS * DELTA_CHARS
  await startTrace(browser)
  const out = await stream(page, seeded.session.id, text, marker, { windowFrom: prefix + paced * window[0], windowTo: prefix + paced * window[1] })
  const trace = await stopTrace(browser, `delta-${tag}`)
  check(out.shown, 'the open session does not show the end of the streamed reply')
  const ms = out.windowEndAt - out.windowStartAt
  if (ms < MIN_WINDOW_MS) return { caughtUp: false, ms }
  const chars = out.windowEndChars - out.windowStartChars
  return { caughtUp: true, us: (busyMs(trace.main, trace.mark('bench:window-start'), trace.mark('bench:window-end')) * 1000) / (chars / DELTA_CHARS) }
}

export async function deltaCost(page, browser, where, { projectID, version }, log) {
  const runs = Object.fromEntries(Object.keys(SIZES).map((size) => [size, []]))
  // A session per attempt: earlier long replies left mounted in the list would be part of the next run's layout.
  const sessions = Array.from({ length: COST_RUNS * 2 * ATTEMPTS }, (_, i) => seededSession(projectID, version, `Bench delta ${i}`, SESSION_MESSAGES, SESSION_MESSAGES))
  await seed(page, sessions.flatMap((s) => s.chunks))
  let next = 0
  let notCaughtUp = 0
  for (let i = 0; i < COST_RUNS; i++) {
    for (const [size, spec] of Object.entries(SIZES)) {
      let us = NaN
      for (let attempt = 1; attempt <= ATTEMPTS && Number.isNaN(us); attempt++) {
        const result = await run(page, browser, where, sessions[next++], spec, `d${i}-${size}-${attempt}`)
        if (result.caughtUp) us = result.us
        else {
          notCaughtUp++
          log(`  reply at ${size}, run ${i + 1}: its timed deltas reached the page within ${Math.round(result.ms)} ms (it had not caught up); again`)
        }
      }
      runs[size].push(us)
      log(`  reply at ${size}, run ${i + 1}: main ${us.toFixed(1)} µs/delta`)
    }
  }
  // A run that never caught up has no figure (NaN): the medians leave it out, and with none left the figure misses.
  const med = (values) => {
    const known = values.filter((v) => !Number.isNaN(v))
    return known.length ? median(known) : NaN
  }
  // Paired, as in the streaming section: each 200 KB run follows its 1 KB run within seconds.
  const ratio = med(runs['200KB'].map((us, i) => us / runs['1KB'][i]))
  return { mainUsPerDelta_1KB: med(runs['1KB']), mainUsPerDelta_200KB: med(runs['200KB']), mainUsPerDeltaRatio_200KBvs1KB: ratio, deltaRunsNotCaughtUp: notCaughtUp }
}
