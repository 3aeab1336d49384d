// Sync across devices (issue 31), in the built app with a CouchDB-protocol server (PouchDB Server in memory, as the
// e2e suite starts it): the first sync of a long coding session to a new device, and the steady cost of syncing one
// turn afterwards. Device A is the bench's page; device B is a browser context of its own (its own IndexedDB).
// Rows and bytes are counted from both devices' requests to the sync server, as the browser reports them.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { check, pageSetup, seed, waitForHook } from './page.mjs'
import { ascendingId, sessionRow } from './rows.mjs'
import { script, turn } from './steps.mjs'
import { size } from './size.mjs'

export const SYNC_MESSAGES = size(10_000, 100)
const CHUNK = 1_000 // messages per writeFixture call
const SYNC_PORT = Number(process.env.TABCODE_SYNC_BENCH_PORT ?? 8824)
const PASSPHRASE = 'correct horse battery staple, bench'
const model = { providerID: 'openai', modelID: 'gpt-bench' }
const emptyTokens = () => ({ input: 120, output: 80, reasoning: 0, cache: { read: 0, write: 0 } })

// Word salad from a seeded PRNG, so the encrypted documents have the sizes prose and code give, not 'x'.repeat.
const WORDS = 'the a function returns value file test error build worker session message part index query store'.split(' ')
let prng = 7
const word = () => WORDS[(prng = (prng * 48_271) % 2_147_483_647) % WORDS.length]
const prose = (length, lead) => {
  let out = lead
  while (out.length < length) out += ' ' + word()
  return out
}
const fileLines = (n) => Array.from({ length: 60 }, (_, line) => `${line + 1}: export const value${line} = ${n} // ${prose(40, '')}`).join('\n')

/**
 * A coding session as the loop stores it: each prompt answered by one assistant message with a step start, reasoning,
 * a completed tool call (a read of a 60-line file or a test run, a few KB of output), the text after it and a step
 * finish; every 50th turn the tool call failed. `count` messages, user and assistant alternating.
 */
function codingSession(projectID, version, count) {
  const now = Date.now()
  const session = sessionRow(projectID, version, 'Bench sync session', now - 60_000)
  const start = now - 3_600_000 - count * 20
  const chunks = []
  let messages = []
  let parts = []
  let lastUser
  for (let i = 0; i < count; i++) {
    const t = start + i * 20
    const id = ascendingId('msg', t)
    const part = (k, body) => parts.push({ id: ascendingId('prt', t + k), sessionID: session.id, messageID: id, ...body })
    if (i % 2 === 0) {
      messages.push({ id, sessionID: session.id, role: 'user', time: { created: t }, agent: 'build', model })
      part(1, { type: 'text', text: prose(160, `Prompt ${i}:`) })
      lastUser = id
    } else {
      messages.push({
        id, sessionID: session.id, role: 'assistant', time: { created: t, completed: t + 9 }, parentID: lastUser, agent: 'build', mode: 'build',
        modelID: model.modelID, providerID: model.providerID, path: { cwd: '/workspace', root: '/workspace' }, cost: 0.0021, tokens: emptyTokens(),
        finish: 'stop',
      })
      part(1, { type: 'step-start' })
      part(2, { type: 'reasoning', text: prose(500, `Thinking ${i}:`), time: { start: t + 2, end: t + 3 } })
      const read = i % 4 === 1
      const input = read ? { filePath: `/workspace/src/module-${i % 300}.ts` } : { command: 'npm test', description: 'Run the tests' }
      part(3, {
        type: 'tool', callID: `call_${i}`, tool: read ? 'read' : 'bash',
        state: i % 100 === 51
          ? { status: 'error', input, error: 'Command failed with exit code 1', time: { start: t + 3, end: t + 4 } }
          : { status: 'completed', input, output: read ? fileLines(i) : prose(2_400, '✓ tests'), title: read ? input.filePath : 'npm test', metadata: {}, time: { start: t + 3, end: t + 4 } },
      })
      part(4, { type: 'text', text: prose(600, `Reply ${i}:`), time: { start: t + 5, end: t + 6 } })
      part(5, { type: 'step-finish', reason: 'stop', cost: 0.0021, tokens: emptyTokens() })
    }
    if (messages.length === CHUNK || i === count - 1) {
      chunks.push({ sessions: chunks.length === 0 ? [session] : [], messages, parts })
      messages = []
      parts = []
    }
  }
  return { session, chunks }
}

async function startSyncServer(root, baseURL, log) {
  const child = spawn(process.execPath, [join(root, 'test-servers/sync-server.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(SYNC_PORT), APP_ORIGIN: new URL(baseURL).origin },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const url = `http://127.0.0.1:${SYNC_PORT}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the sync server exited (${child.exitCode}): ${stderr}`)
    if (await fetch(url).then((response) => response.ok, () => false)) break
    if (Date.now() > deadline) throw new Error(`the sync server did not answer on ${url} within 30 s: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  log(`  sync server on ${url}`)
  return { url, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill()))) }
}

/** Counts a context's requests to the sync server: documents sent in `_bulk_docs`, bytes each way. */
function meter(context, serverURL) {
  const totals = { requests: 0, docsSent: 0, bytesUp: 0, bytesDown: 0 }
  const pending = new Set()
  let lastWrite = Date.now()
  context.on('requestfinished', (request) => {
    if (!request.url().startsWith(serverURL)) return
    if (request.method() !== 'GET' && !request.url().includes('/_local/')) lastWrite = Date.now()
    const counted = (async () => {
      totals.requests += 1
      const body = request.postData() ?? ''
      if (request.url().includes('/_bulk_docs')) totals.docsSent += JSON.parse(body || '{"docs":[]}').docs?.length ?? 0
      const sizes = await request.sizes().catch(() => undefined)
      totals.bytesUp += sizes ? sizes.requestHeadersSize + sizes.requestBodySize : body.length
      totals.bytesDown += sizes ? sizes.responseHeadersSize + sizes.responseBodySize : 0
    })()
    pending.add(counted)
    counted.finally(() => pending.delete(counted))
  })
  return {
    /** Resolves once this device has sent nothing but reads for `ms` (the turn's later writes, like pruning, are out). */
    async quiet(ms) {
      while (Date.now() - lastWrite < ms) await new Promise((resolve) => setTimeout(resolve, 100))
    },
    async take() {
      await Promise.all(pending)
      const taken = { ...totals }
      Object.assign(totals, { requests: 0, docsSent: 0, bytesUp: 0, bytesDown: 0 })
      return taken
    },
  }
}

/** In a page: turns sync on with the bench's server and waits until it has nothing left either way. */
function enableAndSettle({ url, database, passphrase, timeoutMs }) {
  const api = window.__tabcode.api
  return (async () => {
    const report = await api.testSyncConnection({ url, database })
    if (report.type === 'missing') await api.createSyncDatabase({ url, database })
    const t0 = performance.now()
    await api.enableSync({ url, database, passphrase, secrets: false, messages: 'all' })
    for (;;) {
      const status = await api.syncStatus()
      if (status.state === 'synced' && status.pending === 0) return performance.now() - t0
      if (status.state === 'error') throw new Error(`sync stopped: ${status.error?.message}`)
      if (performance.now() - t0 > timeoutMs) throw new Error(`sync did not settle within ${timeoutMs} ms (${status.state}, ${status.pending} pending)`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
}

/** In a page: waits until sync has nothing left either way. */
function settled({ timeoutMs }) {
  const api = window.__tabcode.api
  return (async () => {
    const t0 = performance.now()
    for (;;) {
      const status = await api.syncStatus()
      if (status.state === 'synced' && status.pending === 0) return
      if (status.state === 'error') throw new Error(`sync stopped: ${status.error?.message}`)
      if (performance.now() - t0 > timeoutMs) throw new Error(`sync did not settle within ${timeoutMs} ms (${status.state})`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
}

/** In a page: how many messages a session holds here, and the newest one's text (undefined if it is not here yet). */
function sessionHere({ sessionID }) {
  return (async () => {
    const api = window.__tabcode.api
    const session = await api.getSession(sessionID).catch(() => undefined)
    if (!session) return undefined
    let count = 0
    let before
    let newest
    for (;;) {
      const page = await api.pageMessages({ sessionID, limit: 500, before })
      if (newest === undefined) newest = page.messages.at(-1)?.parts.filter((part) => part.type === 'text').map((part) => part.text).join('')
      count += page.messages.length
      if (!page.nextCursor) break
      before = page.nextCursor
    }
    return { count, newest }
  })()
}

/** In a page: waits until the newest message of a session reads `text`; the wait in ms. */
function waitForNewest({ sessionID, text, timeoutMs }) {
  const api = window.__tabcode.api
  return (async () => {
    const t0 = performance.now()
    for (;;) {
      const { messages } = await api.pageMessages({ sessionID, limit: 1 })
      const newest = messages.at(-1)?.parts.filter((part) => part.type === 'text').map((part) => part.text).join('')
      if (newest === text) return performance.now() - t0
      if (performance.now() - t0 > timeoutMs) throw new Error(`the turn did not arrive within ${timeoutMs} ms`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
}

export async function syncCost(page, browser, { root, baseURL, mockURL, providerID, projectID, version }, log) {
  const figures = {}
  const server = await startSyncServer(root, baseURL, log)
  const database = `bench-${Date.now()}`
  const second = await browser.newContext({ serviceWorkers: 'block' })
  try {
    const { session, chunks } = codingSession(projectID, version, SYNC_MESSAGES)
    await seed(page, chunks)
    await page.reload()
    await waitForHook(page)
    const rows = chunks.reduce((sum, chunk) => sum + chunk.sessions.length + chunk.messages.length + chunk.parts.length, 0)
    log(`  seeded a ${SYNC_MESSAGES.toLocaleString('en')}-message coding session (${rows.toLocaleString('en')} rows) on device A`)

    const first = meter(page.context(), server.url)
    const timeoutMs = 30 * 60_000
    figures.syncUploadMs_10kMessages = await page.evaluate(enableAndSettle, { url: server.url, database, passphrase: PASSPHRASE, timeoutMs })
    const upload = await first.take()
    log(`  device A's first upload: ${figures.syncUploadMs_10kMessages.toFixed(0)} ms, ${upload.docsSent} documents, ${(upload.bytesUp / 2 ** 20).toFixed(1)} MB up`)
    check(upload.docsSent >= rows, `device A sent ${upload.docsSent} documents for ${rows} rows`)

    await second.addInitScript(pageSetup)
    const other = await second.newPage()
    await other.goto(baseURL)
    await waitForHook(other)
    const joined = meter(second, server.url)
    figures.syncFirstSyncMs_10kMessages = await other.evaluate(enableAndSettle, { url: server.url, database, passphrase: PASSPHRASE, timeoutMs })
    const download = await joined.take()
    const here = await other.evaluate(sessionHere, { sessionID: session.id })
    check(here?.count === SYNC_MESSAGES, `device B holds ${here?.count} of the session's ${SYNC_MESSAGES} messages after its first sync`)
    figures.syncFirstSyncMB_10kMessages = download.bytesDown / 2 ** 20
    figures.syncFirstSyncRequests_10kMessages = download.requests
    log(`  device B's first sync: ${figures.syncFirstSyncMs_10kMessages.toFixed(0)} ms, ${download.requests} requests, ${figures.syncFirstSyncMB_10kMessages.toFixed(1)} MB down`)

    // Real turns on A (a read and the reply after it), each timed until B shows the reply, with what both sent. The
    // first turn in the seeded session also prunes the old tool outputs it holds (opencode's rule, run after a turn),
    // which changes thousands of parts once; the second is the steady cost of a turn.
    for (const [index, name] of ['FirstTurn', 'Turn'].entries()) {
      await first.take()
      await joined.take()
      const reply = `Synced turn ${index} ${Date.now()}: the reply after the read.`
      await script(mockURL, [
        { type: 'stream', chunks: [{ toolCall: { id: `sync_read_${index}`, name: 'read', arguments: JSON.stringify({ filePath: 'README.md' }) } }] },
        { type: 'stream', chunks: [{ text: reply }] },
      ])
      const waiting = other.evaluate(waitForNewest, { sessionID: session.id, text: reply, timeoutMs: 600_000 })
      const result = await turn(page, { sessionID: session.id, model: { providerID, modelID: 'mock-model' }, text: `Read the README, then answer (${index}).` })
      check(result.reply === reply, `the synced turn's reply was ${JSON.stringify(result.reply)}`)
      const arrivedMs = await waiting
      // Everything the turn changed has gone out once A has sent nothing for a few seconds and says it is synced.
      await first.quiet(3_000)
      await page.evaluate(settled, { timeoutMs: 600_000 })
      const sent = await first.take()
      const received = await joined.take()
      // B started waiting as A's turn started: what is left after the turn's own time is the sync's delay.
      figures[`sync${name}ArrivalMs`] = Math.max(0, arrivedMs - result.ms)
      figures[`sync${name}DocsSent`] = sent.docsSent
      figures[`sync${name}KBUp`] = sent.bytesUp / 1024
      figures[`sync${name}KBDown`] = received.bytesDown / 1024
      figures[`sync${name}Requests`] = sent.requests + received.requests
      log(
        `  ${index === 0 ? 'the first turn (it prunes old tool outputs)' : 'the next turn'}: on device B ${figures[`sync${name}ArrivalMs`].toFixed(0)} ms after ` +
          `it ended on A; A sent ${sent.docsSent} documents in ${sent.requests} requests (${figures[`sync${name}KBUp`].toFixed(1)} KB up), ` +
          `B took ${figures[`sync${name}KBDown`].toFixed(1)} KB in ${received.requests} requests`,
      )
    }
    await page.evaluate(() => window.__tabcode.api.disableSync())
  } finally {
    await second.close()
    await server.stop()
  }
  return figures
}
