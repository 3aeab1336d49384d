// `--only=delta` (issue 18): main-thread CPU per streamed delta into an open session while the reply is 1 KB long and
// while it is 200 KB long. Flat means a delta costs the same whatever came before it in the reply.
import { check, median, seed } from './page.mjs'
import { replyText, seededSession } from './rows.mjs'
import { COST_RUNS, control, openSession, stream } from './streaming.mjs'
import { busyMs, startTrace, stopTrace } from './trace.mjs'

const DELTA_CHARS = 4
const SIZES = { '1KB': 1_024, '200KB': 204_800 }
// What follows the prefix: 3,000 paced deltas of 4 characters (12 KB, ~1 s). The timed window is its 30%–90% part:
// the page renders the prefix as one piece first (a one-off no stream has), and the deltas behind it arrive bunched.
const WINDOW_DELTAS = 3_000
const WINDOW = [0.3, 0.9]
// The window's deltas take ~600 ms to send; reaching the page in less than half that, they came bunched up behind a
// busy main thread (the page had not caught up with the stream), and the figure would time nothing.
const MIN_WINDOW_MS = 300
// The prefix goes out in pieces this large (one or two network writes), so its own cost stays out of the window.
const PREFIX_PIECE = 4_096
const PACE = { chunkDelayMs: 16, eventsPerWrite: 50 } // ~3,000 deltas/s, as the streaming section offers
const SESSION_MESSAGES = 100

/** One run: a reply of `prefix` characters sent at once, then WINDOW_DELTAS paced deltas, of which WINDOW is timed. */
async function run(page, browser, { baseURL, mockURL }, seeded, prefix, tag) {
  await openSession(page, baseURL, seeded)
  const { text, marker } = replyText(prefix / DELTA_CHARS + WINDOW_DELTAS, DELTA_CHARS, tag)
  const chunks = [{ text: text.slice(0, prefix), split: PREFIX_PIECE }, { text: text.slice(prefix), split: DELTA_CHARS }]
  await control(mockURL, '/__reset')
  await control(mockURL, '/__script', { model: 'mock-model', responses: [{ type: 'stream', chunks, ...PACE }] })
  const window = WINDOW_DELTAS * DELTA_CHARS
  await startTrace(browser)
  const out = await stream(page, seeded.session.id, text, marker, { windowFrom: prefix + window * WINDOW[0], windowTo: prefix + window * WINDOW[1] })
  const trace = await stopTrace(browser, `delta-${tag}`)
  check(out.shown, 'the open session does not show the end of the streamed reply')
  const chars = out.windowEndChars - out.windowStartChars
  const ms = out.windowEndAt - out.windowStartAt
  check(ms >= MIN_WINDOW_MS, `the timed deltas of ${tag} reached the page within ${Math.round(ms)} ms: it had not caught up with the stream`)
  return (busyMs(trace.main, trace.mark('bench:window-start'), trace.mark('bench:window-end')) * 1000) / (chars / DELTA_CHARS)
}

export async function deltaCost(page, browser, where, { projectID, version }, log) {
  const runs = Object.fromEntries(Object.keys(SIZES).map((size) => [size, []]))
  // A session per run (and per retry): earlier long replies left mounted in the list would be part of the next run's layout.
  const sessions = Array.from({ length: COST_RUNS * 4 }, (_, i) => seededSession(projectID, version, `Bench delta ${i}`, SESSION_MESSAGES, SESSION_MESSAGES))
  await seed(page, sessions.flatMap((s) => s.chunks))
  let next = 0
  for (let i = 0; i < COST_RUNS; i++) {
    for (const [size, prefix] of Object.entries(SIZES)) {
      // On a busy machine the page can fall behind the prefix now and then: such a run times nothing, so retry once.
      const attempt = (tag) => run(page, browser, where, sessions[next++], prefix, tag)
      const us = await attempt(`d${i}-${size}`).catch((error) => {
        if (!String(error?.message).includes('had not caught up')) throw error
        log(`  ${error.message}; again`)
        return attempt(`d${i}-${size}-again`)
      })
      runs[size].push(us)
      log(`  reply at ${size}, run ${i + 1}: main ${us.toFixed(1)} µs/delta`)
    }
  }
  // Paired, as in the streaming section: each 200 KB run follows its 1 KB run within seconds.
  const ratio = median(runs['200KB'].map((us, i) => us / runs['1KB'][i]))
  return { mainUsPerDelta_1KB: median(runs['1KB']), mainUsPerDelta_200KB: median(runs['200KB']), mainUsPerDeltaRatio_200KBvs1KB: ratio }
}
