// Issue 18: a step costs the same in a long session as in a short one. Two figures, through the real loop in the
// worker with the scripted mock model server, each with the session open in the UI:
// - a 1-step text turn (a short scripted reply) in sessions of 2, 1,000, 10,000 and 100,000 seeded messages, timed in
//   the page from `api.prompt` to the worker's `idle` status for that session (which it posts after the turn's
//   diffs are recorded); the median of STEP_RUNS turns after one warm-up turn. The sessions of 1,000 and more end
//   as a long session does: a compaction (marker, summary, its "continue" and the reply to it) four messages before
//   the end, its kept tail starting two messages before the marker. Then the same turn in sessions of the shapes
//   opencode leaves (`shapes.mjs`, issue 32): an automatic-compaction loop, one turn of 10,000 tool calls compacted
//   near its end, a parent of 50 subagent sessions, and the loop as an import from opencode stores it; each with
//   its ratio to the 2-message session, whose turn is measured again after all the others (the ratios use the
//   median of both sets: the machine drifts over a run).
// - a 20-step `read` turn (20 scripted read calls, then a text) in an open session: per-step overhead = (the turn's
//   wall time − the server's scripted delays, none here) / 20, the median of READ_RUNS turns after a warm-up.
import { check, median, openFresh, seed } from './page.mjs'
import { busyMs, startTrace, stopTrace } from './trace.mjs'
import { collectGarbage, memoryNow, rendererAllocators } from './memory.mjs'
import { ascendingId, sessionRow } from './rows.mjs'
import { compactionLoopSession, importedSession, inChunks, longTurnSession, said, subagentSession } from './shapes.mjs'
import { size } from './size.mjs'
import { PROFILE_DIR, profileTurns } from './cpu-profile.mjs'

export const STEP_SIZES = size([2, 1_000, 10_000, 100_000], [2, 1_000])
const STEP_RUNS = Number(process.env.BENCH_STEP_RUNS ?? size(7, 1))
const READ_RUNS = Number(process.env.BENCH_READ_RUNS ?? size(3, 1))
const WARM_UP = 2 // turns per size before the measured ones
const READ_STEPS = 20
// The shapes of issue 32: a session that compacted in a loop as long as its real one (1,639 messages), a turn of
// 10,000 tool calls, 50 subagent sessions, and the loop imported from opencode.
const LOOP_MESSAGES = size(1_640, 200)
const LONG_TURN_STEPS = size(10_000, 200)
const SUBAGENTS = size(50, 5)
const READ_FILE = 'bench-steps-read.txt'

const emptyTokens = () => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } })
const model = { providerID: 'openai', modelID: 'gpt-bench' }

/**
 * `count` messages of one session as writeFixture chunks: user and assistant alternating, one text part each; with
 * `compacted`, the last four are a compaction marker (its tail from two messages before it), its summary, the
 * "continue" it added and the reply to that. Returns the chunks and the newest message's text.
 */
function stepSession(projectID, version, count, compacted) {
  const now = Date.now()
  const session = sessionRow(projectID, version, `Bench steps ${count}`, now - 60_000)
  const start = now - 3_600_000 - count * 10
  const messages = []
  const parts = []
  let lastUser
  const user = (t, part) => {
    const id = ascendingId('msg', t)
    messages.push({ id, sessionID: session.id, role: 'user', time: { created: t }, agent: 'build', model })
    parts.push({ id: ascendingId('prt', t + 1), sessionID: session.id, messageID: id, ...part })
    return (lastUser = id)
  }
  const assistant = (t, text, extra = {}) => {
    const id = ascendingId('msg', t)
    messages.push({
      id, sessionID: session.id, role: 'assistant', time: { created: t, completed: t + 1 }, parentID: lastUser, agent: 'build', mode: 'build',
      modelID: model.modelID, providerID: model.providerID, path: { cwd: '/workspace', root: '/workspace' }, cost: 0, tokens: emptyTokens(),
      finish: 'stop', ...extra,
    })
    parts.push({ id: ascendingId('prt', t + 1), sessionID: session.id, messageID: id, type: 'text', text })
    return id
  }
  const plain = compacted ? count - 4 : count
  for (let i = 0; i < plain; i++) {
    const t = start + i * 10
    if (i % 2 === 0) user(t, { type: 'text', text: said(i) })
    else assistant(t, said(i))
  }
  let newest = said(plain - 1)
  if (compacted) {
    const t = start + plain * 10
    const tailStart = messages.at(-2).id
    user(t, { type: 'compaction', auto: true, tail_start_id: tailStart })
    assistant(t + 10, 'Summary of the seeded session: nothing is left to do.', { summary: true, agent: 'compaction', mode: 'compaction' })
    user(t + 20, { type: 'text', text: 'Continue if you have next steps', synthetic: true, metadata: { compaction_continue: true } })
    newest = 'Carried on after the seeded compaction.'
    assistant(t + 30, newest)
  }
  return inChunks({ session, messages, parts }, newest)
}

async function control(mockURL, path, body) {
  const response = await fetch(mockURL + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  if (!response.ok) throw new Error(`mock model server ${path}: ${response.status} ${await response.text()}`)
}

export async function script(mockURL, responses) {
  await control(mockURL, '/__reset')
  await control(mockURL, '/__script', { model: 'mock-model', responses })
}

/** In the page: one prompt, timed to the worker's idle status for the session; what the turn stored at the end. */
function timedTurn({ sessionID, model, text, timeoutMs }) {
  const api = window.__tabcode.api
  const channel = new BroadcastChannel('tabcode:events')
  const errors = []
  let onIdle
  const idle = new Promise((resolve, reject) => {
    onIdle = resolve
    setTimeout(() => reject(new Error(`the turn in ${sessionID} did not end within ${timeoutMs} ms`)), timeoutMs)
  })
  idle.catch(() => {})
  // An envelope carries a batch: `{ protocol, events }`.
  channel.onmessage = ({ data }) => {
    for (const event of data?.events ?? []) {
      if (!event || event.sessionID !== sessionID) continue
      if (event.type === 'session.error') errors.push(event.error)
      if (event.type === 'session.status' && event.status.type === 'idle') onIdle(performance.now())
    }
  }
  return (async () => {
    try {
      const t0 = performance.now()
      performance.mark('bench:prompt')
      await api.prompt({ sessionID, parts: [{ type: 'text', text }], model })
      const t1 = await idle
      performance.mark('bench:idle')
      const { messages } = await api.pageMessages({ sessionID, limit: 40 })
      const asked = messages.findLastIndex((m) => m.info.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text === text))
      const turnParts = messages.slice(asked + 1).flatMap((m) => m.parts)
      const last = messages.at(-1)
      return {
        ms: t1 - t0,
        // The worker's own clock: the prompt stored → the turn's last reply completed (turn-end diffs not included).
        workerMs: last?.info.time.completed - messages[asked]?.info.time.created,
        errors,
        reply: last?.info.role === 'assistant' ? last.parts.filter((p) => p.type === 'text').map((p) => p.text).join('') : undefined,
        completedTools: turnParts.filter((p) => p.type === 'tool' && p.state.status === 'completed').length,
      }
    } finally {
      channel.close()
    }
  })()
}

export async function turn(page, args) {
  return page.evaluate(timedTurn, { timeoutMs: 300_000, ...args })
}

/** The 1-step text turn in each size of session, then the 20-step read turn. */
export async function steps(page, browser, { baseURL, mockURL, providerID, projectID, version }, log) {
  const figures = {}
  const mockModel = { providerID, modelID: 'mock-model' }
  const perSize = {}
  // BENCH_STEP_SIZES=2,1000 runs fewer sizes (for working on the bench; the ratio then needs 2 and 100000).
  const sizes = process.env.BENCH_STEP_SIZES ? process.env.BENCH_STEP_SIZES.split(',').map(Number) : STEP_SIZES
  // Every session is written first, so each size is measured in the same database (and after the writes settled).
  const seededSizes = sizes.map((size) => stepSession(projectID, version, size, size >= 1_000))
  const shapes = [
    { name: 'compactionLoop', label: `${LOOP_MESSAGES.toLocaleString('en')}-message compaction loop`, seeded: compactionLoopSession(projectID, version, LOOP_MESSAGES) },
    { name: 'longTurn', label: `turn of ${LONG_TURN_STEPS.toLocaleString('en')} tool calls`, seeded: longTurnSession(projectID, version, LONG_TURN_STEPS) },
    { name: 'subagents', label: `parent of ${SUBAGENTS} subagent sessions`, seeded: subagentSession(projectID, version, SUBAGENTS) },
    { name: 'imported', label: `${LOOP_MESSAGES.toLocaleString('en')}-message compaction loop imported from opencode`, seeded: importedSession(projectID, version, LOOP_MESSAGES) },
  ]
  await openFresh(page, baseURL)
  const seedMs = await seed(page, [...seededSizes.flatMap((seeded) => seeded.chunks), ...shapes.flatMap((shape) => shape.seeded.chunks)])
  log(`  sessions of ${sizes.map((size) => size.toLocaleString('en')).join(', ')} messages and of each shape (${shapes.map((shape) => shape.label).join('; ')}) written in ${(seedMs / 1000).toFixed(1)} s`)
  const measure = async (seeded, label) => {
    await openSession(page, baseURL, seeded.session.id, seeded.newest)
    const times = []
    const workerTimes = []
    let profile
    for (let run = 1 - WARM_UP; run <= STEP_RUNS; run++) {
      if (PROFILE_DIR && run === 1) profile = await profileTurns(browser, page)
      const reply = `Short bench reply ${label}-${run}.`
      await script(mockURL, [{ type: 'stream', chunks: [{ text: reply }] }])
      const out = await turn(page, { sessionID: seeded.session.id, model: mockModel, text: `Bench step ${label}-${run}` })
      check(out.errors.length === 0, `the turn in the ${label} session failed: ${JSON.stringify(out.errors)}`)
      check(out.reply === reply, `the ${label} session stored ${JSON.stringify(out.reply)}, expected ${JSON.stringify(reply)}`)
      // The warm-up turns: the first records the session's diffs for the first time (a whole read).
      if (run > 0) times.push(out.ms)
      if (run > 0) workerTimes.push(out.workerMs)
    }
    if (profile) log(`  CPU profiles of those turns: ${await profile.stop(`steps ${label}`)}`)
    log(`  ${label}: ${median(times).toFixed(1)} ms per 1-step turn (median of ${times.length}: ${times.map((t) => t.toFixed(0)).join(', ')}; worker clock ${workerTimes.join(', ')})`)
    return { ms: median(times), workerMs: median(workerTimes), times, workerTimes }
  }
  const record = (name, measured) => {
    figures[`stepTurnMs_${name}`] = measured.ms
    figures[`stepTurnWorkerMs_${name}`] = measured.workerMs
  }
  let base
  for (const [index, size] of sizes.entries()) {
    const measured = await measure(seededSizes[index], `${size.toLocaleString('en')} messages`)
    if (size === 2) base = measured
    perSize[size] = measured.ms
    record(`${size >= 1_000 ? `${size / 1_000}k` : size}Messages`, measured)
  }
  // Issue 32: the shapes real long sessions have.
  const shaped = []
  for (const shape of shapes) shaped.push([shape, await measure(shape.seeded, shape.label)])
  // The new session's turn again, after all the others, so that a machine drifting over the run does not move the
  // ratios: every ratio is against the median of both sets.
  if (base) {
    const again = await measure(seededSizes[sizes.indexOf(2)], '2 messages, again')
    base = { ms: median([...base.times, ...again.times]), workerMs: median([...base.workerTimes, ...again.workerTimes]) }
    perSize[2] = base.ms
    record('2Messages', base)
  }
  if (perSize[100_000] && perSize[2]) figures.stepCostRatio_100kVs2 = perSize[100_000] / perSize[2]
  for (const [shape, measured] of shaped) {
    record(shape.name, measured)
    if (perSize[2]) figures[`stepCostRatio_${shape.name}Vs2`] = measured.ms / perSize[2]
  }

  // The 20-step read turn, in a fresh small session (two seeded messages), with a 40-line file to read, in a tab of
  // its own: a new renderer process, so its memory at the end is the turn's and the app's, not what the sections
  // before it (sessions of 100,000 messages, the shapes) left in the allocators of the tab that opened them.
  // The first tab is left on a blank page meanwhile: its app would hear the turn's events and render them.
  await page.goto('about:blank')
  const readPage = await page.context().newPage()
  const small = stepSession(projectID, version, 2, false)
  await openFresh(readPage, baseURL)
  await seed(readPage, small.chunks)
  await readPage.evaluate(
    ({ projectID, path }) =>
      window.__tabcode.api.saveFile({ projectID, path, content: Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the file the bench reads`).join('\n') + '\n' }),
    { projectID, path: READ_FILE },
  )
  // Open, as the target asks; then closed (the page on the session list), for information: what the page's own work
  // (rendering each step's cards) costs the turn on this machine.
  let rendererPid
  for (const open of [true, false]) {
    if (open) await openSession(readPage, baseURL, small.session.id, small.newest)
    else await openFresh(readPage, baseURL)
    const readTimes = []
    let profile
    for (let run = 0; run <= READ_RUNS; run++) {
      if (PROFILE_DIR && open && run === 1) profile = await profileTurns(browser, readPage)
      // Different offsets: three identical calls in a row would ask the doom-loop question.
      const calls = Array.from({ length: READ_STEPS }, (_, i) => ({
        type: 'stream',
        chunks: [{ toolCall: { id: `read_${open}_${run}_${i}`, name: 'read', arguments: JSON.stringify({ filePath: READ_FILE, offset: i + 1, limit: 5 }) } }],
      }))
      const reply = `Read it all, run ${run}${open ? '' : ' (closed)'}.`
      await script(mockURL, [...calls, { type: 'stream', chunks: [{ text: reply }] }])
      // The first measured run with the session open is traced: how much of a step the worker and the page spend
      // running (and which process is the page's renderer).
      const traced = open && run === 1
      if (traced) await startTrace(browser)
      const out = await turn(readPage, { sessionID: small.session.id, model: mockModel, text: `Bench read turn ${run}${open ? '' : ' (closed)'}` })
      if (traced) {
        const trace = await stopTrace(browser, 'read-turn')
        const [from, to] = [trace.mark('bench:prompt'), trace.mark('bench:idle')]
        figures.readStepWorkerBusyMs = busyMs(trace.worker, from, to) / READ_STEPS
        figures.readStepMainBusyMs = busyMs(trace.main, from, to) / READ_STEPS
        rendererPid = trace.pid
        log(`  traced read turn: ${out.ms.toFixed(0)} ms; per step the worker ran ${figures.readStepWorkerBusyMs.toFixed(1)} ms, the page ${figures.readStepMainBusyMs.toFixed(1)} ms`)
      }
      // Issue 32: what the tab holds at the end of the last turn, the session still open (untraced, unless it is
      // the only one: tracing keeps buffers in the renderer).
      if (open && run === READ_RUNS) {
        const memory = await memoryNow(browser, readPage, rendererPid)
        for (const [key, value] of Object.entries(memory)) figures[`${key}_readTurn`] = value
        if (process.env.BENCH_MEMORY_DUMP) {
          const allocators = await rendererAllocators(browser, rendererPid)
          log(`  the renderer's largest allocators (MB): ${allocators.map(({ name, mb }) => `${name} ${mb.toFixed(1)}`).join(', ')}`)
        }
        // And what of it is held, not garbage waiting for a collection that had not come yet.
        await collectGarbage(browser, readPage)
        await new Promise((resolve) => setTimeout(resolve, 1_000)) // sweeping and unmapping run after the collection
        const held = await memoryNow(browser, readPage, rendererPid)
        figures.rendererRssMbAfterGc_readTurn = held.rendererRssMb
        figures.browserPssMbAfterGc_readTurn = held.browserPssMb
        log(`  memory at its end: renderer ${memory.rendererRssMb?.toFixed(0)} MB RSS (its own ${memory.rendererRssAnonMb?.toFixed(0)}, files ${memory.rendererRssFileMb?.toFixed(0)}), ${memory.rendererPssMb?.toFixed(0)} MB PSS; all ${memory.processes} Chromium processes ${memory.browserRssMb?.toFixed(0)} MB RSS, ${memory.browserPssMb?.toFixed(0)} MB PSS; JS heap page ${memory.pageHeapMb?.toFixed(1)} of ${memory.pageHeapTotalMb?.toFixed(1)} MB, worker ${memory.workerHeapMb?.toFixed(1)} of ${memory.workerHeapTotalMb?.toFixed(1)} MB; after a full GC the renderer ${held.rendererRssMb?.toFixed(0)} MB RSS (its own ${held.rendererRssAnonMb?.toFixed(0)}), JS heap page ${held.pageHeapMb?.toFixed(1)} MB, worker ${held.workerHeapMb?.toFixed(1)} MB`)
      }
      check(out.errors.length === 0, `the read turn failed: ${JSON.stringify(out.errors)}`)
      check(out.reply === reply, `the read turn stored ${JSON.stringify(out.reply)}, expected ${JSON.stringify(reply)}`)
      check(out.completedTools === READ_STEPS, `the read turn completed ${out.completedTools} of ${READ_STEPS} read calls`)
      if (run > 0) readTimes.push(out.ms)
    }
    if (profile) log(`  CPU profiles of those turns: ${await profile.stop('read turn')}`)
    const readMs = median(readTimes)
    log(`  20-step read turn, session ${open ? 'open' : 'closed'}: ${readMs.toFixed(0)} ms (median of ${readTimes.length}: ${readTimes.map((t) => t.toFixed(0)).join(', ')})`)
    if (open) {
      figures.readTurnMs_20Steps = readMs
      figures.readStepOverheadMs = readMs / READ_STEPS // no scripted server delays to take off
    } else figures.readStepOverheadMsSessionClosed = readMs / READ_STEPS
  }
  await readPage.close()
  await openFresh(page, baseURL) // the sections after this one use the first tab
  return figures
}

async function openSession(page, baseURL, sessionID, newest) {
  await openFresh(page, `${baseURL}#/session/${sessionID}`)
  await page.waitForFunction((text) => document.body.textContent.includes(text), newest, { timeout: 120_000 }).catch(() => {
    throw new Error(`the UI did not show the newest message of ${sessionID} within 120 s of opening it`)
  })
}
