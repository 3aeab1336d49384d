// Streaming targets (BENCHMARKS.md): replies streamed by the scripted OpenAI-compatible server
// (test-servers/mock-model-server.mjs) through the real provider code in the worker, into sessions the UI has open.
import { check, median, openFresh, seed } from './page.mjs'
import { messageMarker, replyText, seededSession } from './rows.mjs'
import { drive } from './drive.mjs'
import { busyMs, longestTaskMs, startTrace, stopTrace } from './trace.mjs'
import { size } from './size.mjs'

export const MOCK_PORT = Number(process.env.BENCH_MOCK_PORT ?? 8797) // not the e2e server's 8787
const DELTA_CHARS = 4
// Paced replies: a write of `eventsPerWrite` SSE events every `chunkDelayMs` (Node's 16 ms timers fire every
// ~16.5 ms). 50 per write is target 1's 3,000 deltas/s, i.e. ~50 deltas per frame (target 3's unit).
const TARGET_RATE = { chunkDelayMs: 16, eventsPerWrite: 50 }
const OFFERED_RATE = { chunkDelayMs: 16, eventsPerWrite: 67 } // ≈ 4,000/s: a third above the target
const THROUGHPUT_DELTAS = size(40_000, 12_000) // ≈ 10 s at the offered rate
const BURST_DELTAS = size(40_000, 2_000) // all at once (no pacing): the server writes 64 KB batches as fast as the socket takes them
const MAIN_THREAD_DELTAS = size(20_000, 2_000) // target 4: "streaming 20,000 tokens"
const COST_DELTAS = size(12_000, 1_500) // ≈ 4 s per per-delta-cost run
export const COST_RUNS = Number(process.env.BENCH_COST_RUNS ?? size(3, 1))
const SAMPLE_MS = 50 // metrics polling while the throughput reply streams
const SETTLE_MS = 1_000 // after an opened session shows its newest message: boot queries and first render are done
const CHUNK = 1_000
// The fixed commits of a one-text-part step (step-start, text-start, text-end, step-finish); the rest are flushes.
const STEP_SAVES = 4

// The worker merges each network read's runs of deltas (src/provider/stream-coalescing.ts), so its `deltas` counter
// counts merged ones; the deltas the server sent are the characters that went through over the characters in each.
const sent = (metrics) => metrics.characters / DELTA_CHARS

let runs = 0
const nextTag = () => `r${String(++runs).padStart(3, '0')}`

/** Makes the mock server the default model through the worker's RPC, as e2e/testing/connect-model.ts does. */
export async function connectMockModel(page, url) {
  return page.evaluate(async (baseURL) => {
    const api = window.__tabcode.api
    const provider = await api.saveProvider({
      type: 'openai-compatible', name: 'Mock server (bench)', baseURL, apiKey: 'sk-mock-bench',
      models: [
        // A window the seeded 10,000-message history fits in: with less, the pre-send compaction answers first and
        // takes the reply scripted for the stream (a summariser request), and the figures would time a summary.
        { id: 'mock-model', limit: { context: 100_000_000, output: 4_096 }, cost: { input: 2, output: 8 } },
        { id: 'mock-small', limit: { context: 16_000, output: 1_024 }, cost: { input: 0, output: 0 } },
      ],
    })
    await api.setSetting({ key: 'model.default', value: { providerID: provider.id, modelID: 'mock-model' } })
    await api.setSetting({ key: 'model.small', value: { providerID: provider.id, modelID: 'mock-small' } })
    // The streaming figures are about the loop and the UI. Here WebContainer can never boot (no route to StackBlitz),
    // and its 20 s attempt after every page load would land in the middle of the measured streams.
    await api.setSetting({ key: 'workspace.backend', value: 'local' })
    return provider.id
  }, `${url}/v1`)
}

export async function control(url, path, body) {
  const response = await fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  if (!response.ok) throw new Error(`mock model server ${path}: ${response.status} ${await response.text()}`)
}

/** Clears the server (its request log holds every prompt, up to ~20 MB for the 10k session) and queues one reply. */
async function scriptReply(url, text, options) {
  await control(url, '/__reset')
  const response = { type: 'stream', chunks: [{ text, split: DELTA_CHARS }], ...options }
  await control(url, '/__script', { model: 'mock-model', responses: [response] })
}

export async function stream(page, sessionID, text, marker, options = {}) {
  const args = { sessionID, text, marker, hang: false, sampleMs: 0, frames: false, timeoutMs: 120_000, ...options }
  const out = await page.evaluate(drive, args)
  check(out.storedMatches, `the stored reply in ${sessionID} differs from the ${text.length} characters the server sent`)
  check(out.chars === text.length, `the page received ${out.chars} streamed characters, the server sent ${text.length}`)
  check(out.after.characters - out.before.characters === text.length, 'the worker streamed a different number of characters than were sent')
  return out
}

/**
 * Per-delta busy time (µs) of the main and worker threads over the middle 80% of the reply: the deltas that arrived
 * after the window-start mark, up to the window-end mark. When the worker delivers the reply in a few large batches
 * (it does when it falls behind) and that window holds less than half of it, the whole reply after its first batch
 * is used instead.
 */
function perDelta(trace, out) {
  const middle = out.windowEndChars - out.windowStartChars >= out.chars / 2
  const [fromMark, toMark] = middle ? ['bench:window-start', 'bench:window-end'] : ['bench:first-delta', 'bench:last-delta']
  const chars = middle ? out.windowEndChars - out.windowStartChars : out.chars - out.firstChars
  const ms = middle ? out.windowEndAt - out.windowStartAt : out.lastAt - out.firstAt
  check(chars > 0 && ms > 0, `the reply reached the page in ${out.events} message(s): no window to measure per-delta cost in`)
  const [from, to] = [trace.mark(fromMark), trace.mark(toMark)]
  const deltas = chars / DELTA_CHARS
  return {
    mainUs: (busyMs(trace.main, from, to) * 1000) / deltas,
    workerUs: (busyMs(trace.worker, from, to) * 1000) / deltas,
    deltasPerSec: (deltas / ms) * 1000,
    uiMessagesPerSec: ((out.events - 1) / (out.lastAt - out.firstAt)) * 1000,
    window: middle ? 'middle' : 'whole',
  }
}

/**
 * Opens a seeded session in the UI (the open session lives in the URL fragment) and waits until it shows its newest
 * message: the last seeded one, or the end of the reply streamed into it last (`newest`), which is what a
 * bottom-anchored list shows.
 */
export async function openSession(page, baseURL, seeded) {
  await openFresh(page, `${baseURL}#/session/${seeded.session.id}`)
  await page
    .waitForFunction((marker) => document.body.textContent.includes(marker), seeded.newest ?? messageMarker(seeded.lastIndex), { timeout: 60_000 })
    .catch(() => {
      throw new Error(`the UI did not show the newest message of ${seeded.session.id} within 60 s of opening it`)
    })
  await page.waitForTimeout(SETTLE_MS)
}

/** Seeds the sessions the streaming figures need; `tenK` is the first-screen session (10,000 messages) if it ran. */
export async function prepare(page, { projectID, version, tenK }, log) {
  const make = (title, count) => seededSession(projectID, version, title, count, CHUNK)
  const sessions = { hundred: make('Bench stream 100', 100), twoK: make('Bench stream 2k', size(2_000, 300)) }
  sessions.tenK = tenK ?? make('Bench stream 10k', size(10_000, 300))
  const chunks = Object.values(sessions).flatMap((s) => (s === tenK ? [] : s.chunks))
  const ms = await seed(page, chunks)
  log(`  wrote sessions of 100, 2,000${tenK ? '' : ' and 10,000'} messages in ${(ms / 1000).toFixed(1)} s`)
  if (tenK) await page.evaluate(([id]) => window.__tabcode.api.renameSession(id, 'Bench stream 10k'), [tenK.session.id])
  return sessions
}

/**
 * Targets 1 and 2, plus the burst. On a page with no session open (the worker's figures), in a session of its own:
 * a burst of BURST_DELTAS sent at once, then THROUGHPUT_DELTAS offered at ~4,000/s with the stream held open after
 * the last delta, so the last commit is the timed flush that holds it.
 */
export async function throughput(page, browser, { baseURL, mockURL }, log) {
  await openFresh(page, baseURL)
  const sessionID = await page.evaluate(async () => (await window.__tabcode.api.createSession({ title: 'Bench throughput' })).id)

  log(`  burst: ${BURST_DELTAS.toLocaleString('en')} deltas at once…`)
  const burst = replyText(BURST_DELTAS, DELTA_CHARS, nextTag())
  await scriptReply(mockURL, burst.text, { chunkDelayMs: 0 })
  await startTrace(browser)
  const b = await stream(page, sessionID, burst.text, burst.marker)
  const bTrace = await stopTrace(browser, 'burst')

  log(`  throughput: ${THROUGHPUT_DELTAS.toLocaleString('en')} deltas offered at ~4,000/s…`)
  const reply = replyText(THROUGHPUT_DELTAS, DELTA_CHARS, nextTag())
  await scriptReply(mockURL, reply.text, { ...OFFERED_RATE, hangAfter: THROUGHPUT_DELTAS })
  const out = await stream(page, sessionID, reply.text, reply.marker, { hang: true, sampleMs: SAMPLE_MS })
  check(out.storedAtHang, 'the committed text at the end of the stream differs from what the server sent')

  const total = THROUGHPUT_DELTAS
  const base = sent(out.before)
  const end = out.atHang // after the flush that holds the last delta; nothing commits while the stream hangs
  // The worker's clock: a sample pairs a delta count with the time of its latest delta (likewise for commits).
  // A sample is answered only when the worker's event loop is free, so a worker that stops yielding shows as a gap.
  const during = out.samples.filter((s) => sent(s) > base && sent(s) < base + total)
  const a = during[0]
  check(a !== undefined, 'the worker answered no metrics call while the reply streamed')
  const window = end.lastDeltaAt - a.lastDeltaAt
  // Normally the first sample comes within the first 100 deltas; a worker that never yields can push it later.
  check(window >= 2_000, `the worker answered its first metrics call only ${Math.round(window)} ms before the last delta`)
  let min1s = Infinity
  for (const s of during) {
    const later = [...during, end].find((x) => x.lastDeltaAt >= s.lastDeltaAt + 1_000)
    if (later) min1s = Math.min(min1s, ((sent(later) - sent(s)) / (later.lastDeltaAt - s.lastDeltaAt)) * 1000)
  }
  // Gaps between the commits the samples saw (a sample sees only the newest one, so this is an upper bound).
  const commitTimes = [...new Set([...during, end].map((s) => s.lastCommitAt))]
  const gap = Math.max(...commitTimes.slice(1).map((t, i) => t - commitTimes[i]))
  return {
    streamDeltasPerSec: ((sent(end) - sent(a)) / window) * 1000,
    // How many of the server's deltas the worker handled as one, after merging each network read's runs.
    deltasPerWorkerDelta: (sent(end) - sent(a)) / (end.deltas - a.deltas),
    ...(min1s < Infinity ? { streamDeltasPerSecMin1s: min1s } : {}),
    streamSeconds: window / 1000,
    streamSamples: during.length,
    streamFirstSampleAfterDeltas: sent(a) - base,
    streamPageDeltasPerSec: ((out.chars - out.firstChars) / DELTA_CHARS / (out.lastAt - out.firstAt)) * 1000, // as the page saw them
    uiMessagesPerSec: ((out.events - 1) / (out.lastAt - out.firstAt)) * 1000, // part.delta messages the page received
    // Every commit from the first sample to the flush holding the last delta, over the same window.
    commitsPerSec: ((end.commits - a.commits) / window) * 1000,
    maxCommitGapMs: gap,
    lastDeltaToCommitMs: end.lastCommitAt - end.lastDeltaAt,
    lastDeltaToReadableMs: out.visibleAt - out.lastAt,
    burstLongestWorkerTaskMs: longestTaskMs(bTrace.worker, bTrace.mark('bench:prompt'), bTrace.mark('bench:idle')),
    burstFlushes: Math.max(0, b.after.commits - b.before.commits - STEP_SAVES),
    burstUiEvents: b.events,
  }
}

/**
 * Target 4 (and its per-delta cost, for information): 20,000 deltas at the target rate into the open 2k session, twice.
 * The figure comes from the traced run, as it always has: the trace sees every task. Tracing takes its share of the
 * machine's two cores, though, and stretches the page's tasks, so a first run without it reports what the Long
 * Tasks API sees (every task of 50 ms or more, and nothing shorter), for information.
 */
export async function mainThread(page, browser, { baseURL, mockURL }, sessions, log) {
  log(`  ${MAIN_THREAD_DELTAS.toLocaleString('en')} deltas (prose and ts code blocks) at ~3,000/s into the open 2,000-message session, untraced…`)
  await openSession(page, baseURL, sessions.twoK)
  const plain = replyText(MAIN_THREAD_DELTAS, DELTA_CHARS, nextTag(), { code: true })
  await scriptReply(mockURL, plain.text, TARGET_RATE)
  const untraced = await stream(page, sessions.twoK.session.id, plain.text, plain.marker, { frames: true })
  sessions.twoK.newest = plain.marker
  check(untraced.shown, 'the open session does not show the end of the streamed reply')

  log('  the same, traced…')
  await openSession(page, baseURL, sessions.twoK)
  const reply = replyText(MAIN_THREAD_DELTAS, DELTA_CHARS, nextTag(), { code: true })
  await scriptReply(mockURL, reply.text, TARGET_RATE)
  await startTrace(browser)
  const out = await stream(page, sessions.twoK.session.id, reply.text, reply.marker, { frames: true })
  const trace = await stopTrace(browser, 'main-thread-2k')
  sessions.twoK.newest = reply.marker
  check(out.shown, 'the open session does not show the end of the streamed reply')
  const [from, to] = [trace.mark('bench:prompt'), trace.mark('bench:idle')]
  const costs = perDelta(trace, out)
  const traced = longestTaskMs(trace.main, from, to)
  const observed = Math.max(0, ...out.longTasks.map((e) => e.duration))
  return {
    // The trace sees every task; the Long Tasks API only those ≥ 50 ms, but it cannot miss one, so take the larger.
    maxMainThreadTaskMs: Math.max(traced, observed),
    tracedLongestMainTaskMs: traced,
    longTasks: out.longTasks.length,
    longTaskObserverMaxMs: observed,
    maxFrameGapMs: out.frames.maxGap,
    framesOver50Ms: out.frames.over50,
    streamFps_2kMessages: out.frames.count / ((out.idleAt - out.promptAt) / 1000),
    // The untraced run: how many tasks of 50 ms or more, and the longest of them (0 when there were none).
    untracedLongTasks: untraced.longTasks.length,
    untracedLongTaskMaxMs: Math.max(0, ...untraced.longTasks.map((e) => e.duration)),
    untracedMaxFrameGapMs: untraced.frames.maxGap,
    uiMessagesPerSec_2kMessages: costs.uiMessagesPerSec,
    mainUsPerDelta_2kMessages: costs.mainUs,
    lastDeltaToCommitMsAtEnd: out.after.lastCommitAt - out.after.lastDeltaAt,
    deltasPerWorkerDelta_2kMessages: MAIN_THREAD_DELTAS / (out.after.deltas - out.before.deltas),
  }
}

/** Target 3: the same reply into an open 100-message and 10,000-message session, interleaved, COST_RUNS times each. */
export async function perDeltaCost(page, browser, { baseURL, mockURL }, sessions, log) {
  const runs = { hundred: [], tenK: [] }
  for (let i = 0; i < COST_RUNS; i++) {
    for (const size of ['hundred', 'tenK']) {
      await openSession(page, baseURL, sessions[size])
      const reply = replyText(COST_DELTAS, DELTA_CHARS, nextTag())
      await scriptReply(mockURL, reply.text, TARGET_RATE)
      await startTrace(browser)
      const out = await stream(page, sessions[size].session.id, reply.text, reply.marker)
      const trace = await stopTrace(browser, `per-delta-${size}-${i + 1}`)
      sessions[size].newest = reply.marker
      check(out.shown, 'the open session does not show the end of the streamed reply')
      const cost = perDelta(trace, out)
      runs[size].push(cost)
      log(
        `  ${size === 'tenK' ? '10,000' : '100'} messages, run ${i + 1}: main ${cost.mainUs.toFixed(1)} µs/delta, ` +
          `worker ${cost.workerUs.toFixed(1)} µs/delta, ${Math.round(cost.deltasPerSec)} deltas/s, ${Math.round(cost.uiMessagesPerSec)} UI messages/s`,
      )
    }
  }
  const med = (size, key) => median(runs[size].map((r) => r[key]))
  // Each 10k run follows its 100 run within seconds, so their ratio cancels the VM's slow drifts in speed; the
  // median of those paired ratios is far steadier than a ratio of two medians taken minutes apart.
  const paired = (key) => median(runs.tenK.map((run, index) => run[key] / runs.hundred[index][key]))
  return {
    // What the worker delivered while the UI had the session open, with ~3,000/s offered (all runs).
    streamDeltasPerSec_uiOpen: median([...runs.hundred, ...runs.tenK].map((r) => r.deltasPerSec)),
    perDeltaCostRatio_10kVs100: paired('mainUs'),
    workerPerDeltaCostRatio_10kVs100: paired('workerUs'),
    perDeltaCostRatioOfMedians_10kVs100: med('tenK', 'mainUs') / med('hundred', 'mainUs'),
    mainUsPerDelta_100Messages: med('hundred', 'mainUs'),
    mainUsPerDelta_10kMessages: med('tenK', 'mainUs'),
    workerUsPerDelta_100Messages: med('hundred', 'workerUs'),
    workerUsPerDelta_10kMessages: med('tenK', 'workerUs'),
    perDeltaRuns: runs,
  }
}
