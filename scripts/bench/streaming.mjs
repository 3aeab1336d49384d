// Targets 1–4 of performance-and-reliability.md §12: replies streamed by the scripted OpenAI-compatible server
// (e2e/support/mock-model-server.mjs) through the real provider code in the worker, into sessions the UI has open.
import { check, median, openFresh, seed } from './page.mjs'
import { messageMarker, replyText, seededSession } from './rows.mjs'
import { busyMs, longestTaskMs, startTrace, stopTrace } from './trace.mjs'

export const MOCK_PORT = 8797 // not the e2e server's 8787
const DELTA_CHARS = 4
// Paced replies: a write of `eventsPerWrite` SSE events every `chunkDelayMs` (Node's 16 ms timers fire every
// ~16.5 ms). 50 per write is target 1's 3,000 deltas/s, i.e. ~50 deltas per frame (target 3's unit).
const TARGET_RATE = { chunkDelayMs: 16, eventsPerWrite: 50 }
const OFFERED_RATE = { chunkDelayMs: 16, eventsPerWrite: 100 } // ≈ 6,000/s: twice the target, for the throughput figure
const THROUGHPUT_DELTAS = 60_000 // ≈ 10 s at the offered rate
const BURST_DELTAS = 40_000 // all at once (no pacing): the server writes 64 KB batches as fast as the socket takes them
const MAIN_THREAD_DELTAS = 20_000 // target 4: "streaming 20,000 tokens"
const COST_DELTAS = 12_000 // ≈ 4 s per per-delta-cost run
export const COST_RUNS = 3
const SAMPLE_MS = 50 // metrics polling while the throughput reply streams
const SETTLE_MS = 1_000 // after an opened session shows its newest message: boot queries and first render are done
const CHUNK = 1_000
// The fixed commits of a one-text-part step (step-start, text-start, text-end, step-finish); the rest are flushes.
const STEP_SAVES = 4

let runs = 0
const nextTag = () => `r${String(++runs).padStart(3, '0')}`

/** Makes the mock server the default model through the worker's RPC, as e2e/support/connect-model.ts does. */
export async function connectMockModel(page, url) {
  return page.evaluate(async (baseURL) => {
    const api = window.__tabcode.api
    const provider = await api.saveProvider({
      type: 'openai-compatible', name: 'Mock server (bench)', baseURL, apiKey: 'sk-mock-bench',
      models: [
        { id: 'mock-model', limit: { context: 100_000, output: 4_096 }, cost: { input: 2, output: 8 } },
        { id: 'mock-small', limit: { context: 16_000, output: 1_024 }, cost: { input: 0, output: 0 } },
      ],
    })
    await api.setSetting({ key: 'model.default', value: { providerID: provider.id, modelID: 'mock-model' } })
    await api.setSetting({ key: 'model.small', value: { providerID: provider.id, modelID: 'mock-small' } })
    return provider.id
  }, `${url}/v1`)
}

async function control(url, path, body) {
  const response = await fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  if (!response.ok) throw new Error(`mock model server ${path}: ${response.status} ${await response.text()}`)
}

/** Clears the server (its request log holds every prompt, up to ~20 MB for the 10k session) and queues one reply. */
async function scriptReply(url, text, options) {
  await control(url, '/__reset')
  const response = { type: 'stream', chunks: [{ text, split: DELTA_CHARS }], ...options }
  await control(url, '/__script', { model: 'mock-model', responses: [response] })
}

/**
 * The in-page driver: sends a prompt through the RPC and follows the reply on the app's event channel (envelopes
 * `{ protocol, event }`), as every tab does. Marks `bench:prompt`, `bench:first-delta`, `bench:last-delta` and
 * `bench:idle` for the trace. `hang`: the server holds the stream open after the last delta (no finish), the
 * driver waits for that delta to be committed, then cancels.
 */
function drive({ sessionID, text, marker, hang, sampleMs, frames, timeoutMs }) {
  const api = window.__tabcode.api
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  const out = { chars: 0, events: 0, firstChars: 0, samples: [], errors: [], longTasks: [] }
  const channel = new BroadcastChannel('tabcode:events')
  let onComplete, onIdle, fail
  const complete = new Promise((resolve, reject) => ((onComplete = resolve), (fail = reject)))
  const idle = new Promise((resolve) => (onIdle = resolve))
  complete.catch(() => {})
  const timer = setTimeout(() => fail(new Error(`timed out after ${timeoutMs} ms with ${out.chars} of ${text.length} characters`)), timeoutMs)
  channel.onmessage = ({ data }) => {
    const event = data?.event
    if (!event || event.sessionID !== sessionID) return
    if (event.type === 'part.delta') {
      const now = performance.now()
      if (!out.events++) {
        out.firstAt = now
        out.firstChars = event.delta.length
        performance.mark('bench:first-delta')
      }
      out.chars += event.delta.length
      if (out.chars >= text.length && out.lastAt === undefined) {
        out.lastAt = now
        performance.mark('bench:last-delta')
        onComplete()
      }
    } else if (event.type === 'session.error') {
      out.errors.push(event.error)
    } else if (event.type === 'session.status' && event.status.type === 'idle') {
      out.idleAt = performance.now()
      performance.mark('bench:idle')
      onIdle()
      if (out.lastAt === undefined) fail(new Error(`the turn ended after ${out.chars} of ${text.length} characters: ${JSON.stringify(out.errors)}`))
    }
  }

  // Longest frames: gaps between animation frames (a fallback view of main-thread blocking), from the prompt on.
  let framing = frames
  const frameStats = { count: 0, maxGap: 0, over50: 0 }
  if (frames) {
    let last
    const tick = (t) => {
      if (!framing) return
      if (last !== undefined) {
        frameStats.count++
        frameStats.maxGap = Math.max(frameStats.maxGap, t - last)
        if (t - last > 50) frameStats.over50++
      }
      last = t
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  }
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) out.longTasks.push({ start: e.startTime, duration: e.duration })
  })
  observer.observe({ type: 'longtask', buffered: true })

  let sampling = !!sampleMs
  const sampler = (async () => {
    while (sampling) {
      const t = performance.now()
      out.samples.push({ t, ...(await api.metrics()) })
      await sleep(sampleMs)
    }
  })()

  const storedText = async () => {
    const { messages } = await api.pageMessages({ sessionID, limit: 1 })
    const last = messages.at(-1)
    if (last?.info.role !== 'assistant') return undefined
    return last.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')
  }

  return (async () => {
    try {
      out.before = await api.metrics()
      out.promptAt = performance.now()
      performance.mark('bench:prompt')
      await api.prompt({ sessionID, parts: [{ type: 'text', text: 'Stream the bench reply.' }] })
      await complete
      if (hang) {
        // Persistence lag seen from the page: last delta in, until a read returns the full text.
        while ((await storedText())?.length !== text.length) {
          if (performance.now() - out.lastAt > 10_000) throw new Error('the streamed text was not committed within 10 s')
        }
        out.visibleAt = performance.now()
        // In the worker: the timed flush that holds the last delta. Nothing else commits while the stream hangs.
        for (;;) {
          const m = await api.metrics()
          if (m.deltas - out.before.deltas >= text.length / 4 && m.lastCommitAt > m.lastDeltaAt) break
          await sleep(10)
        }
        await sleep(300)
        out.atHang = await api.metrics()
        out.storedAtHang = (await storedText()) === text
        await api.cancel(sessionID)
      }
      await idle
      sampling = false
      await sampler
      out.after = await api.metrics()
      out.storedMatches = (await storedText()) === text
      await sleep(200) // the last batch is applied on the next frame
      out.shown = document.body.textContent.includes(marker)
      out.longTasks = out.longTasks.filter((e) => e.start + e.duration > out.promptAt)
      out.frames = frameStats
      return out
    } finally {
      clearTimeout(timer)
      sampling = false
      framing = false
      observer.disconnect()
      channel.close()
    }
  })()
}

async function stream(page, sessionID, text, marker, options = {}) {
  const args = { sessionID, text, marker, hang: false, sampleMs: 0, frames: false, timeoutMs: 120_000, ...options }
  const out = await page.evaluate(drive, args)
  check(out.storedMatches, `the stored reply in ${sessionID} differs from the ${text.length} characters the server sent`)
  check(out.chars === text.length, `the page received ${out.chars} streamed characters, the server sent ${text.length}`)
  check(out.after.deltas - out.before.deltas === text.length / DELTA_CHARS, 'the worker counted a different number of deltas than were sent')
  return out
}

const deltasOf = (out) => (out.chars - out.firstChars) / DELTA_CHARS // deltas that arrived after the first-delta mark

/** Per-delta busy time (µs) of the main and worker threads between the first and the last delta the page received. */
function perDelta(trace, out) {
  const from = trace.mark('bench:first-delta')
  const to = trace.mark('bench:last-delta')
  const deltas = deltasOf(out)
  return {
    mainUs: (busyMs(trace.main, from, to) * 1000) / deltas,
    workerUs: (busyMs(trace.worker, from, to) * 1000) / deltas,
    fps: (out.frames?.count ?? 0) / ((out.idleAt - out.promptAt) / 1000),
  }
}

/**
 * Opens a seeded session in the UI (the open session lives in the URL fragment) and waits until it shows its newest
 * message: the last seeded one, or the end of the reply streamed into it last (`newest`), which is what a
 * bottom-anchored list shows.
 */
async function openSession(page, baseURL, seeded) {
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
  const sessions = { hundred: make('Bench stream 100', 100), twoK: make('Bench stream 2k', 2_000) }
  sessions.tenK = tenK ?? make('Bench stream 10k', 10_000)
  const chunks = Object.values(sessions).flatMap((s) => (s === tenK ? [] : s.chunks))
  const ms = await seed(page, chunks)
  log(`  wrote sessions of 100, 2,000${tenK ? '' : ' and 10,000'} messages in ${(ms / 1000).toFixed(1)} s`)
  if (tenK) await page.evaluate(([id]) => window.__tabcode.api.renameSession(id, 'Bench stream 10k'), [tenK.session.id])
  return sessions
}

/**
 * Targets 1 and 2, plus the burst. On a page with no session open (the worker's figures), in a session of its own:
 * a burst of BURST_DELTAS sent at once, then THROUGHPUT_DELTAS offered at ~6,000/s with the stream held open after
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
  const bTrace = await stopTrace(browser)

  log(`  throughput: ${THROUGHPUT_DELTAS.toLocaleString('en')} deltas offered at ~6,000/s…`)
  const reply = replyText(THROUGHPUT_DELTAS, DELTA_CHARS, nextTag())
  await scriptReply(mockURL, reply.text, { ...OFFERED_RATE, hangAfter: THROUGHPUT_DELTAS })
  const out = await stream(page, sessionID, reply.text, reply.marker, { hang: true, sampleMs: SAMPLE_MS })
  check(out.storedAtHang, 'the committed text at the end of the stream differs from what the server sent')

  const total = THROUGHPUT_DELTAS
  const base = out.before.deltas
  const during = out.samples.filter((s) => s.deltas > base && s.deltas < base + total)
  check(during.length >= 10, `only ${during.length} metrics samples fell inside the stream`)
  const [a, b2] = [during[0], during.at(-1)]
  check(a.deltas - base < total / 10, `the first sample inside the stream came after ${a.deltas - base} deltas`)
  const end = out.atHang
  const rate = ((end.deltas - a.deltas) / (end.lastDeltaAt - a.lastDeltaAt)) * 1000
  let min1s = Infinity
  for (const s of during) {
    const later = during.find((x) => x.lastDeltaAt >= s.lastDeltaAt + 1_000)
    if (later) min1s = Math.min(min1s, ((later.deltas - s.deltas) / (later.lastDeltaAt - s.lastDeltaAt)) * 1000)
  }
  // Gaps between the commits the samples saw (a sample sees only the newest one, so this is an upper bound).
  let gap = 0
  for (let i = 1; i < during.length; i++) {
    if (during[i].lastCommitAt !== during[i - 1].lastCommitAt) gap = Math.max(gap, during[i].lastCommitAt - during[i - 1].lastCommitAt)
  }
  gap = Math.max(gap, end.lastDeltaAt - b2.lastCommitAt)
  return {
    streamDeltasPerSec: rate,
    streamDeltasPerSecMin1s: min1s,
    streamSeconds: (end.lastDeltaAt - a.lastDeltaAt) / 1000,
    streamOfferedPerSec: (total / (out.lastAt - out.firstAt)) * 1000, // as the page saw it arrive
    commitsPerSec: ((b2.commits - a.commits) / (b2.lastDeltaAt - a.lastDeltaAt)) * 1000,
    maxCommitGapMs: gap,
    lastDeltaToCommitMs: end.lastCommitAt - end.lastDeltaAt,
    lastDeltaToReadableMs: out.visibleAt - out.lastAt,
    burstLongestWorkerTaskMs: longestTaskMs(bTrace.worker, bTrace.mark('bench:prompt'), bTrace.mark('bench:idle')),
    burstFlushes: Math.max(0, b.after.commits - b.before.commits - STEP_SAVES),
    burstUiEvents: b.events,
  }
}

/** Target 4 (and its per-delta cost, for information): 20,000 deltas at the target rate into the open 2k session. */
export async function mainThread(page, browser, { baseURL, mockURL }, sessions, log) {
  log(`  ${MAIN_THREAD_DELTAS.toLocaleString('en')} deltas at ~3,000/s into the open 2,000-message session…`)
  await openSession(page, baseURL, sessions.twoK)
  const reply = replyText(MAIN_THREAD_DELTAS, DELTA_CHARS, nextTag())
  await scriptReply(mockURL, reply.text, TARGET_RATE)
  await startTrace(browser)
  const out = await stream(page, sessions.twoK.session.id, reply.text, reply.marker, { frames: true })
  const trace = await stopTrace(browser)
  sessions.twoK.newest = reply.marker
  check(out.shown, 'the open session does not show the end of the streamed reply')
  const [from, to] = [trace.mark('bench:prompt'), trace.mark('bench:idle')]
  const costs = perDelta(trace, out)
  return {
    maxMainThreadTaskMs: longestTaskMs(trace.main, from, to),
    longTasks: out.longTasks.length,
    longTaskObserverMaxMs: Math.max(0, ...out.longTasks.map((e) => e.duration)),
    maxFrameGapMs: out.frames.maxGap,
    framesOver50Ms: out.frames.over50,
    streamFps_2kMessages: costs.fps,
    mainUsPerDelta_2kMessages: costs.mainUs,
    lastDeltaToCommitMsAtEnd: out.after.lastCommitAt - out.after.lastDeltaAt,
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
      const trace = await stopTrace(browser)
      sessions[size].newest = reply.marker
      check(out.shown, 'the open session does not show the end of the streamed reply')
      const cost = perDelta(trace, out)
      runs[size].push(cost)
      log(`  ${size === 'tenK' ? '10,000' : '100'} messages, run ${i + 1}: main ${cost.mainUs.toFixed(1)} µs/delta, worker ${cost.workerUs.toFixed(1)} µs/delta`)
    }
  }
  const med = (size, key) => median(runs[size].map((r) => r[key]))
  return {
    perDeltaCostRatio_10kVs100: med('tenK', 'mainUs') / med('hundred', 'mainUs'),
    workerPerDeltaCostRatio_10kVs100: med('tenK', 'workerUs') / med('hundred', 'workerUs'),
    mainUsPerDelta_100Messages: med('hundred', 'mainUs'),
    mainUsPerDelta_10kMessages: med('tenK', 'mainUs'),
    workerUsPerDelta_100Messages: med('hundred', 'workerUs'),
    workerUsPerDelta_10kMessages: med('tenK', 'workerUs'),
    perDeltaRuns: runs,
  }
}
