#!/usr/bin/env node
// A scriptable model server for e2e and provider tests. Node `http` only, no dependencies. It speaks four wire
// formats, and one scripted response renders in whichever the request came in:
//   POST /v1/chat/completions                               OpenAI Chat Completions (and OpenAI-compatible servers)
//   POST /v1/responses                                      OpenAI Responses
//   POST /v1/messages                                       Anthropic Messages
//   POST /v1beta/models/{model}:streamGenerateContent       Gemini (`?alt=sse`)
// plus each one's model list (GET /v1/models answers in Anthropic's shape when the request carries
// `anthropic-version`; GET /v1beta/models in Gemini's). Event shapes follow what @ai-sdk/openai, /anthropic and
// /google parse (their chunk schemas) and the providers' streaming docs.
//
//   node test-servers/mock-model-server.mjs          # listens on 127.0.0.1:$PORT (default 8787)
//   const { url, close } = await startMockModelServer({ port: 0 })   # from a test, on a random port
//
// Tests script it over HTTP (e2e/testing/model-script.ts wraps this with types):
//   POST /__script   { model?, responses: Response[] }   queue responses (per model id, or the shared queue)
//   POST /__reset                                        clear queues, request log and /v1/models scripting
//   POST /__release  { name }                            let the responses held as `hold: name` answer
//   POST /__models   { ids?, fail? }                     script GET /v1/models
//   GET  /__requests?wait=N&settled=1&timeoutMs=&path=   request log; wait long-polls (≤ 10 s) for N requests
//   GET  /__queues                                       responses still queued, by queue
// The browser worker calls /v1/* cross-origin from the app (127.0.0.1:4173) under COEP require-corp, so every
// response carries CORS headers; CORS alone is enough there, no CORP header is needed.
import http from 'node:http'
import { pathToFileURL } from 'node:url'

const DEFAULT_MODEL_IDS = ['mock-model', 'mock-small']
const DEFAULT_TEXT = '(no scripted response)'
const DEFAULT_PROMPT_TOKENS = 10
const SHARED = 'shared'
const WAIT_LIMIT_MS = 10_000
// Deltas written without a delay are joined into writes of about this size: 30,000 deltas become ~100 writes.
const BATCH_CHARS = 64 * 1024
const FINISH_REASONS = ['stop', 'tool_calls', 'length', 'content_filter']
const SECRET_HEADERS = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key']

const CORS = {
  'Access-Control-Allow-Origin': '*',
  // `*` does not cover Authorization in browsers that follow the Fetch spec, so it is named as well.
  'Access-Control-Allow-Headers': '*, Authorization',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
  // Lets the app read retry-after / retry-after-ms on error responses.
  'Access-Control-Expose-Headers': '*',
  'Access-Control-Max-Age': '600',
}

/**
 * Starts the server. `port: 0` picks a free port; the returned `url` has the real one.
 * @param {{ port?: number, host?: string, verbose?: boolean }} [options]
 */
export async function startMockModelServer({ port = 0, host = '127.0.0.1', verbose = false } = {}) {
  const state = createState()
  const server = http.createServer((req, res) => {
    handle(state, req, res).catch((err) => {
      if (verbose) console.error('[mock-model] handler failed:', err)
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err?.message ?? err), type: 'mock_server_error' } })
      else res.destroy()
    })
    if (verbose) res.on('finish', () => console.log(`[mock-model] ${req.method} ${req.url} → ${res.statusCode}`))
  })
  // Long streams and hangs must not be cut by Node's default request timeout.
  server.requestTimeout = 0
  server.headersTimeout = 0
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(undefined)
    })
  })
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((resolve) => {
        for (const live of state.live) live.abort('server-closed')
        for (const waiter of state.waiters) waiter.cancel()
        server.close(() => resolve(undefined))
        server.closeAllConnections()
      }),
  }
}

function createState() {
  return {
    /** @type {Map<string, { response: any, remaining: number }[]>} queue name (model id or SHARED) → entries */
    queues: new Map(),
    /** @type {any[]} */
    log: [],
    seq: 0,
    models: { ids: [...DEFAULT_MODEL_IDS], fail: /** @type {any} */ (null) },
    /** @type {Set<{ check: () => void, cancel: () => void }>} */
    waiters: new Set(),
    /** @type {Set<{ abort: (outcome: string) => void }>} */
    live: new Set(),
    /** A page that never finishes (`GET /slow`), for tools cancelled while they wait: how many opened and closed. */
    slow: { opened: 0, closed: 0 },
    /** Hold names released since the last reset, and the responses waiting on the others (`hold`). */
    released: new Set(),
    /** @type {Map<string, Set<() => void>>} */
    held: new Map(),
  }
}

async function handle(state, req, res) {
  const url = new URL(req.url ?? '/', 'http://mock')
  const route = `${req.method} ${url.pathname.replace(/\/+$/, '') || '/'}`

  if (url.pathname.startsWith('/no-cors/')) {
    // A server that answers but never sends CORS headers (a local model server left at its defaults): the browser
    // refuses the app's request, which is what "Test connection" must recognise.
    res.writeHead(req.method === 'OPTIONS' ? 204 : 200, { 'Content-Type': 'application/json' })
    res.end(req.method === 'OPTIONS' ? undefined : JSON.stringify({ object: 'list', data: [] }))
    return
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS)
    res.end()
    return
  }
  switch (route) {
    case 'GET /health':
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/plain' })
      res.end('ok')
      return
    case 'GET /v1/models':
      return listModels(state, req, res, url, req.headers['anthropic-version'] ? 'messages' : 'chat')
    case 'GET /v1beta/models':
      return listModels(state, req, res, url, 'gemini')
    case 'POST /v1/chat/completions':
      return modelCall(state, req, res, url, FORMATS.chat)
    case 'POST /v1/responses':
      return modelCall(state, req, res, url, FORMATS.responses)
    case 'POST /v1/messages':
      return modelCall(state, req, res, url, FORMATS.messages)
    case 'POST /api/show':
      // Ollama's own API, which reports a model's context: the settings fill the limits in from it.
      sendJson(res, 200, { parameters: '', model_info: { 'general.architecture': 'mock', 'mock.context_length': 65_536 } })
      return
    case 'POST /__script':
      return script(state, req, res)
    case 'POST /__reset':
      reset(state)
      sendJson(res, 200, { ok: true })
      return
    case 'POST /__models':
      return scriptModels(state, req, res)
    case 'POST /__release':
      return release(state, req, res)
    case 'GET /__requests':
      return requests(state, req, res, url)
    case 'GET /__queues':
      sendJson(res, 200, queueSizes(state))
      return
    case 'GET /slow':
      state.slow.opened++
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/plain' })
      res.write('the first bytes of a page that never ends\n')
      req.on('close', () => state.slow.closed++)
      return
    case 'GET /__slow':
      sendJson(res, 200, state.slow)
      return
    default: {
      const gemini = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/.exec(url.pathname)
      if (req.method === 'POST' && gemini) return modelCall(state, req, res, url, FORMATS.gemini, decodeURIComponent(gemini[1]))
      sendJson(res, 404, { error: { message: `mock model server: no route for ${route}`, type: 'not_found' } })
    }
  }
}

// ── control endpoints ────────────────────────────────────────────────────────────────────────────────────────────

async function script(state, req, res) {
  const body = await readJson(req)
  if (!body.ok) return sendJson(res, 400, { error: body.error })
  const { model, responses } = body.value ?? {}
  if (model != null && (typeof model !== 'string' || !model)) return sendJson(res, 400, { error: '`model` must be a non-empty string' })
  if (!Array.isArray(responses)) return sendJson(res, 400, { error: '`responses` must be an array' })
  for (const [i, response] of responses.entries()) {
    const problem = validateResponse(response)
    if (problem) return sendJson(res, 400, { error: `responses[${i}]: ${problem}` })
  }
  const name = model ?? SHARED
  const queue = state.queues.get(name) ?? []
  for (const response of responses) queue.push({ response, remaining: response.repeat ?? 1 })
  state.queues.set(name, queue)
  sendJson(res, 200, queueSizes(state))
}

function reset(state) {
  state.slow = { opened: 0, closed: 0 }
  // A held response is live: the abort below ends it.
  state.released.clear()
  for (const live of state.live) live.abort('reset')
  state.queues.clear()
  state.log = []
  state.models = { ids: [...DEFAULT_MODEL_IDS], fail: null }
}

async function release(state, req, res) {
  const body = await readJson(req)
  if (!body.ok) return sendJson(res, 400, { error: body.error })
  const name = body.value?.name
  if (typeof name !== 'string' || !name) return sendJson(res, 400, { error: '`name` must be a non-empty string' })
  state.released.add(name)
  const waiting = [...(state.held.get(name) ?? [])]
  for (const go of waiting) go()
  sendJson(res, 200, { ok: true, released: waiting.length })
}

/**
 * Waits until `name` is released (at once if it was since the last reset) or the client goes away. A test holds a
 * reply this way for as long as it takes to do what must happen meanwhile, where a fixed delay races a busy machine.
 */
function held(state, name, res) {
  if (state.released.has(name)) return Promise.resolve()
  return new Promise((resolve) => {
    const waiting = state.held.get(name) ?? new Set()
    state.held.set(name, waiting)
    const done = () => {
      res.off('close', done)
      waiting.delete(done)
      if (waiting.size === 0 && state.held.get(name) === waiting) state.held.delete(name)
      resolve(undefined)
    }
    waiting.add(done)
    res.on('close', done)
  })
}

async function scriptModels(state, req, res) {
  const body = await readJson(req)
  if (!body.ok) return sendJson(res, 400, { error: body.error })
  const { ids, fail } = body.value ?? {}
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) {
    return sendJson(res, 400, { error: '`ids` must be an array of strings' })
  }
  if (fail != null) {
    const problem = validateError(fail) ?? checkCount(fail.repeat, 'repeat', 1)
    if (problem) return sendJson(res, 400, { error: `fail: ${problem}` })
  }
  if (ids !== undefined) state.models.ids = [...ids]
  if (fail !== undefined) state.models.fail = fail == null ? null : { ...fail, remaining: fail.repeat ?? Infinity }
  sendJson(res, 200, { ids: state.models.ids, failing: state.models.fail != null })
}

async function requests(state, req, res, url) {
  const path = url.searchParams.get('path') ?? '/v1/chat/completions'
  // `format=responses` (or chat, messages, gemini) selects one wire format's model calls instead of a path.
  const format = url.searchParams.get('format')
  const wanted = Number(url.searchParams.get('wait') ?? 0)
  const settled = ['1', 'true'].includes(url.searchParams.get('settled') ?? '')
  const timeoutMs = Math.min(WAIT_LIMIT_MS, Number(url.searchParams.get('timeoutMs') ?? WAIT_LIMIT_MS))
  if (!Number.isInteger(wanted) || wanted < 0) return sendJson(res, 400, { error: '`wait` must be a whole number' })
  if (!(timeoutMs >= 0)) return sendJson(res, 400, { error: '`timeoutMs` must be a number' })

  const selected = () => state.log.filter((entry) => (format ? entry.format === format : path === '*' || entry.path === path))
  const ready = () => {
    const list = selected()
    return list.length >= wanted && (!settled || list.slice(0, wanted).every((entry) => entry.outcome !== 'pending'))
  }
  if (ready()) return sendJson(res, 200, selected())

  await new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs)
    const waiter = { check: () => ready() && done(true), cancel: () => done(false) }
    const onClose = () => done(false)
    function done(ok) {
      clearTimeout(timer)
      state.waiters.delete(waiter)
      res.off('close', onClose)
      if (res.destroyed || res.headersSent) return resolve(undefined)
      if (ok) sendJson(res, 200, selected())
      else {
        const have = selected()
        const what = settled ? `${wanted} settled` : `${wanted}`
        sendJson(res, 408, {
          error: `timed out after ${timeoutMs} ms waiting for ${what} ${format ?? path} request(s); have ${have.length}`,
          requests: have,
        })
      }
      resolve(undefined)
    }
    state.waiters.add(waiter)
    res.on('close', onClose)
  })
}

function notify(state) {
  for (const waiter of [...state.waiters]) waiter.check()
}

function queueSizes(state) {
  const sizes = {}
  for (const [name, queue] of state.queues) {
    const total = queue.reduce((sum, entry) => sum + entry.remaining, 0)
    if (total > 0) sizes[name] = total
  }
  return sizes
}

// ── /v1 endpoints ────────────────────────────────────────────────────────────────────────────────────────────────

async function listModels(state, req, res, url, format) {
  const entry = record(state, req, url, null)
  const fail = state.models.fail
  if (fail) {
    fail.remaining -= 1
    if (fail.remaining <= 0) state.models.fail = null
    entry.served = { source: 'models', type: 'error' }
    sendError(res, { ...fail, body: fail.body ?? FORMATS[format].errorBody(fail.status, fail.message) })
  } else {
    entry.served = { source: 'models', type: 'list' }
    const ids = state.models.ids
    if (format === 'messages') {
      const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }))
      sendJson(res, 200, { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null })
    } else if (format === 'gemini') {
      const models = ids.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
      }))
      sendJson(res, 200, { models })
    } else {
      const data = ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'mock' }))
      sendJson(res, 200, { object: 'list', data })
    }
  }
  settle(state, entry, 'completed')
}

/** One model call in `format`; Gemini names the model in the path (`pathModel`), the others in the body. */
async function modelCall(state, req, res, url, format, pathModel) {
  const body = await readJson(req)
  const entry = record(state, req, url, body.ok ? body.value : null, pathModel)
  entry.format = format.name
  if (!body.ok) {
    entry.rawBody = body.raw
    entry.served = { source: 'invalid', type: 'error' }
    sendError(res, { status: 400, body: format.invalidBody(body.error) })
    settle(state, entry, 'completed')
    return
  }
  const model = pathModel ?? (typeof body.value?.model === 'string' ? body.value.model : '')
  const next = take(state, model)
  entry.served = { source: next.source, type: next.response.type }
  const response = normalize(next.response)
  const stream = format.streams(body.value)

  let outcome = 'pending'
  const live = {
    abort: (why) => {
      if (outcome !== 'pending') return
      outcome = why
      res.destroy()
    },
  }
  state.live.add(live)
  res.on('close', () => {
    // 'close' without a finished response means the client went away (abort) before the server was done.
    if (outcome === 'pending') outcome = res.writableFinished ? 'completed' : 'client-closed'
    state.live.delete(live)
    settle(state, entry, outcome)
  })
  const closed = () => outcome !== 'pending' || res.destroyed

  if (response.delayMs > 0) await sleep(response.delayMs, res)
  if (response.hold) await held(state, response.hold, res)
  if (closed()) return
  if (response.type === 'error') {
    sendError(res, { ...response, body: response.body === undefined ? format.errorBody(response.status, response.message) : response.body })
    return
  }
  const deltas = buildDeltas(response.chunks)
  const model_ = model || 'mock-model'
  const stopAfter = response.hangAfter ?? response.dieAfter
  const stopAction = response.hangAfter != null ? 'hang' : response.dieAfter != null ? 'die' : null

  if (!stream) {
    // generateText (doGenerate) posts without `stream: true` and expects one JSON completion; the app itself only
    // streams, so only Chat Completions answers these.
    if (format !== FORMATS.chat) return sendError(res, { status: 400, body: format.invalidBody('mock model server: only streaming requests') })
    if (stopAction === 'hang') return
    if (stopAction === 'die') {
      outcome = 'died'
      res.destroy()
      return
    }
    sendJson(res, 200, completion(model_, deltas, response))
    return
  }

  res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' })
  res.flushHeaders()
  const usage = response.usage === null ? null : usageOf(response, deltas)
  const render = format.renderer(model_, { usage, reasoned: deltas.some((delta) => delta.reasoning_content != null) })
  const count = stopAction ? Math.min(stopAfter, deltas.length) : deltas.length
  // Each delta becomes one event (Chat Completions) or a few (an item or block opening, then its delta).
  const events = [...render.open()]
  for (const delta of deltas.slice(0, count)) events.push(render.delta(delta))
  if (!stopAction) {
    const finish = response.finish === undefined ? defaultFinish(deltas) : response.finish
    events.push(...render.close(finish, usage))
  }
  const written = await writeEvents(res, events, response.chunkDelayMs, closed, response.eventsPerWrite ?? 1)
  if (!written || closed()) return
  if (stopAction === 'hang') return // left open; 'close' records the client's abort
  if (stopAction === 'die') {
    outcome = 'died'
    res.destroy()
    return
  }
  res.end()
}

/** The next scripted response for `model`: its own queue first, then the shared one, then the default text. */
function take(state, model) {
  for (const name of [model, SHARED]) {
    const queue = state.queues.get(name)
    const head = queue?.[0]
    if (!head) continue
    head.remaining -= 1
    if (head.remaining <= 0) queue.shift()
    return { source: name === SHARED ? 'shared' : 'model', response: head.response }
  }
  return { source: 'default', response: { type: 'text', text: DEFAULT_TEXT } }
}

function record(state, req, url, body, pathModel) {
  const headers = {}
  let hasAuthorization = false
  let apiKeyLast4 = null
  for (const [name, value] of Object.entries(req.headers)) {
    const text = Array.isArray(value) ? value.join(', ') : String(value ?? '')
    if (!SECRET_HEADERS.includes(name)) {
      headers[name] = text
      continue
    }
    if (name === 'authorization') hasAuthorization = true
    const key = text.replace(/^Bearer\s+/i, '')
    if (apiKeyLast4 == null || name === 'authorization') apiKeyLast4 = key.slice(-4)
    headers[name] = name === 'authorization' ? 'Bearer <redacted>' : '<redacted>'
  }
  const entry = {
    id: ++state.seq,
    method: req.method,
    path: url.pathname,
    model: pathModel ?? (typeof body?.model === 'string' ? body.model : null),
    headers,
    hasAuthorization,
    apiKeyLast4,
    body,
    receivedAt: Date.now(),
    served: null,
    outcome: 'pending',
  }
  state.log.push(entry)
  notify(state)
  return entry
}

function settle(state, entry, outcome) {
  if (entry.outcome !== 'pending') return
  entry.outcome = outcome
  entry.settledAt = Date.now()
  notify(state)
}

// ── script entries ───────────────────────────────────────────────────────────────────────────────────────────────

function validateResponse(r) {
  if (r == null || typeof r !== 'object') return 'must be an object'
  const common = checkCount(r.repeat, 'repeat', 1) ?? checkCount(r.delayMs, 'delayMs', 0)
  if (common) return common
  if (r.hold != null && (typeof r.hold !== 'string' || !r.hold)) return '`hold` must be a non-empty string'
  switch (r.type) {
    case 'error':
      return validateError(r)
    case 'text':
      if (typeof r.text !== 'string') return '`text` must be a string'
      return validateEnding(r)
    case 'stream': {
      if (!Array.isArray(r.chunks)) return '`chunks` must be an array'
      for (const [i, chunk] of r.chunks.entries()) {
        const problem = validateChunk(chunk)
        if (problem) return `chunks[${i}]: ${problem}`
      }
      if (r.hangAfter != null && r.dieAfter != null) return 'use hangAfter or dieAfter, not both'
      return (
        checkCount(r.chunkDelayMs, 'chunkDelayMs', 0) ??
        checkCount(r.eventsPerWrite, 'eventsPerWrite', 1) ??
        checkCount(r.hangAfter, 'hangAfter', 0) ??
        checkCount(r.dieAfter, 'dieAfter', 0) ??
        validateEnding(r)
      )
    }
    default:
      return "`type` must be 'stream', 'text' or 'error'"
  }
}

function validateChunk(c) {
  if (c == null || typeof c !== 'object') return 'must be an object'
  const kinds = ['text', 'reasoning', 'toolCall', 'raw', 'error'].filter((kind) => kind in c)
  if (kinds.length !== 1) return 'needs exactly one of text, reasoning, toolCall, raw, error'
  const kind = kinds[0]
  if (kind === 'text' || kind === 'reasoning') {
    if (typeof c[kind] !== 'string') return `\`${kind}\` must be a string`
    return checkCount(c.split, 'split', 1)
  }
  if (kind === 'toolCall') {
    const t = c.toolCall
    if (t == null || typeof t !== 'object') return '`toolCall` must be an object'
    for (const field of ['id', 'name', 'arguments']) {
      if (t[field] != null && typeof t[field] !== 'string') return `toolCall.${field} must be a string`
    }
    return checkCount(t.index, 'toolCall.index', 0) ?? checkCount(c.split, 'split', 1)
  }
  if (kind === 'error' && (c.error == null || typeof c.error.message !== 'string')) return '`error.message` must be a string'
  return null
}

function validateError(r) {
  if (!Number.isInteger(r.status) || r.status < 400 || r.status > 599) return '`status` must be an HTTP error status (400–599)'
  if (r.headers != null && (typeof r.headers !== 'object' || Object.values(r.headers).some((v) => typeof v !== 'string'))) {
    return '`headers` must map names to strings'
  }
  return null
}

function validateEnding(r) {
  if (r.finish != null && !FINISH_REASONS.includes(r.finish)) return `\`finish\` must be one of ${FINISH_REASONS.join(', ')} or null`
  if (r.usage != null && (typeof r.usage !== 'object' || typeof r.usage.prompt_tokens !== 'number' || typeof r.usage.completion_tokens !== 'number')) {
    return '`usage` needs numeric prompt_tokens and completion_tokens (or null for no usage chunk)'
  }
  return null
}

function checkCount(value, name, min) {
  if (value == null) return null
  return Number.isInteger(value) && value >= min ? null : `\`${name}\` must be a whole number ≥ ${min}`
}

/** `text` entries become one-chunk streams; everything gets its defaults. */
function normalize(r) {
  const base = r.type === 'text' ? { ...r, type: 'stream', chunks: [{ text: r.text }] } : r
  return { ...base, delayMs: base.delayMs ?? 0, chunkDelayMs: base.chunkDelayMs ?? 0 }
}

/** Expands chunks into the `delta` objects of successive SSE events (text/reasoning split, tool calls indexed). */
function buildDeltas(chunks) {
  const deltas = []
  const callIndexById = new Map()
  const announced = new Map() // index → { id: boolean, name: boolean }
  let lastIndex = -1
  let nextIndex = 0
  for (const chunk of chunks) {
    if ('raw' in chunk) {
      deltas.push({ raw: chunk.raw })
      continue
    }
    if ('error' in chunk) {
      deltas.push({ error: chunk.error })
      continue
    }
    if ('text' in chunk || 'reasoning' in chunk) {
      const field = 'text' in chunk ? 'content' : 'reasoning_content'
      for (const piece of pieces(chunk.text ?? chunk.reasoning, chunk.split)) deltas.push({ [field]: piece })
      continue
    }
    const call = chunk.toolCall
    let index = call.index
    if (index == null && call.id != null && callIndexById.has(call.id)) index = callIndexById.get(call.id)
    if (index == null && call.id == null && lastIndex >= 0) index = lastIndex
    if (index == null) index = nextIndex
    nextIndex = Math.max(nextIndex, index + 1)
    lastIndex = index
    if (call.id != null && !callIndexById.has(call.id)) callIndexById.set(call.id, index)
    const args = pieces(call.arguments ?? '', chunk.split)
    for (const piece of args.length ? args : ['']) {
      const seen = announced.get(index) ?? { id: false, name: false, any: false }
      const part = { index }
      if (call.id != null && !seen.id) part.id = call.id
      if (!seen.any) part.type = 'function'
      part.function = {}
      if (call.name != null && !seen.name) part.function.name = call.name
      part.function.arguments = piece
      announced.set(index, { id: seen.id || part.id != null, name: seen.name || part.function.name != null, any: true })
      deltas.push({ tool_calls: [part] })
    }
  }
  if (deltas[0] && !('raw' in deltas[0]) && !('error' in deltas[0])) deltas[0] = { role: 'assistant', ...deltas[0] }
  return deltas
}

function pieces(text, size) {
  if (!size || text.length <= size) return text.length ? [text] : []
  const out = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

function defaultFinish(deltas) {
  return deltas.some((delta) => delta.tool_calls) ? 'tool_calls' : 'stop'
}

function usageOf(response, deltas) {
  if (response.usage) {
    const { prompt_tokens, completion_tokens } = response.usage
    return { total_tokens: prompt_tokens + completion_tokens, ...response.usage }
  }
  // Default: a rough 4-characters-per-token count of what was streamed.
  let chars = 0
  for (const delta of deltas) {
    chars += (delta.content?.length ?? 0) + (delta.reasoning_content?.length ?? 0)
    for (const call of delta.tool_calls ?? []) chars += call.function.arguments.length
  }
  const completion = Math.max(1, Math.ceil(chars / 4))
  return { prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: completion, total_tokens: DEFAULT_PROMPT_TOKENS + completion }
}

// ── wire format ──────────────────────────────────────────────────────────────────────────────────────────────────

let completionSeq = 0

/** Returns a fast serializer for one stream's chunk events: the fixed part of the JSON is built once. */
function chunkEnvelope(model) {
  const head = JSON.stringify({ id: `chatcmpl-mock-${++completionSeq}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model })
  const prefix = `data: ${head.slice(0, -1)},"choices":[{"index":0,"delta":`
  return (delta, finish = null) => {
    if (delta.raw !== undefined) return `data: ${typeof delta.raw === 'string' ? delta.raw : JSON.stringify(delta.raw)}\n\n`
    return `${prefix}${JSON.stringify(delta)},"finish_reason":${JSON.stringify(finish)}}]}\n\n`
  }
}

function usageEvent(model, usage) {
  const chunk = { id: `chatcmpl-mock-${completionSeq}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage }
  return `data: ${JSON.stringify(chunk)}\n\n`
}

function completion(model, deltas, response) {
  const message = { role: 'assistant', content: '' }
  let reasoning = ''
  const calls = []
  for (const delta of deltas) {
    if (delta.content) message.content += delta.content
    if (delta.reasoning_content) reasoning += delta.reasoning_content
    for (const part of delta.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: part.id ?? `call_mock_${part.index}`, type: 'function', function: { name: '', arguments: '' } })
      if (part.id) call.id = part.id
      if (part.function.name) call.function.name = part.function.name
      call.function.arguments += part.function.arguments ?? ''
    }
  }
  if (reasoning) message.reasoning_content = reasoning
  if (calls.length) message.tool_calls = calls.filter(Boolean)
  const finish = response.finish === undefined ? defaultFinish(deltas) : response.finish
  const body = {
    id: `chatcmpl-mock-${++completionSeq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
  }
  if (response.usage !== null) body.usage = usageOf(response, deltas)
  return body
}

// ── the four wire formats ───────────────────────────────────────────────────────────────────────────────────────
//
// A renderer turns one stream's deltas (the Chat Completions `delta` objects buildDeltas makes, plus `{ raw }` and
// `{ error }`) into that format's SSE text: `open()` before the first delta, `delta(d)` for each (one string, which
// may hold several events), `close(finish, usage)` at a normal end (a hang or a die never closes). `finish` is the
// Chat Completions reason (or null: no final event) and `usage` the Chat Completions usage (or null).

const ANTHROPIC_STOP = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens', content_filter: 'refusal' }
const GEMINI_FINISH = { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY' }
const ANTHROPIC_ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}
const GOOGLE_STATUSES = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

const sse = (value) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`
const named = (event, value) => `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`
const openaiErrorBody = (status, message) => ({ error: { message: message ?? `mock error: HTTP ${status}`, type: 'mock_error', code: status } })

/** Cached and cache-write tokens of a Chat Completions usage (the script's one usage shape). */
function usageParts(usage) {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0
  return { input: usage.prompt_tokens, output: usage.completion_tokens, cached, cacheWrite, reasoning }
}

const FORMATS = {
  chat: {
    name: 'chat',
    streams: (body) => body?.stream === true,
    errorBody: openaiErrorBody,
    invalidBody: (message) => ({ error: { message, type: 'invalid_request_error', code: null } }),
    renderer(model) {
      const envelope = chunkEnvelope(model)
      return {
        open: () => [],
        delta: (delta) =>
          delta.error ? sse({ error: { message: delta.error.message, type: delta.error.type ?? 'server_error', code: delta.error.code ?? null } }) : envelope(delta),
        close(finish, usage) {
          const events = []
          if (finish !== null) events.push(envelope({}, finish))
          if (usage !== null) events.push(usageEvent(model, usage))
          events.push('data: [DONE]\n\n')
          return events
        },
      }
    },
  },

  // OpenAI Responses: output items (reasoning, message, function_call) open with `response.output_item.added`,
  // stream their deltas and close with `response.output_item.done`; `response.completed` carries the usage.
  responses: {
    name: 'responses',
    streams: (body) => body?.stream === true,
    errorBody: openaiErrorBody,
    invalidBody: (message) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
    renderer(model) {
      const id = `resp_mock_${++completionSeq}`
      const created_at = Math.floor(Date.now() / 1000)
      let seq = 0
      let outputIndex = 0
      const output = []
      /** Open items; function calls stay open together, so interleaved argument deltas still reach their call. */
      let open = []
      const event = (value) => named(value.type, { ...value, sequence_number: seq++ })
      const base = (status) => ({ id, object: 'response', created_at, model, status })
      const done = (item) => {
        let body
        if (item.kind === 'message') {
          body = { id: item.id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: item.text, annotations: [] }] }
          return [
            event({ type: 'response.output_text.done', item_id: item.id, output_index: item.index, content_index: 0, text: item.text }),
            event({ type: 'response.content_part.done', item_id: item.id, output_index: item.index, content_index: 0, part: body.content[0] }),
            event({ type: 'response.output_item.done', output_index: item.index, item: (output[item.index] = body) }),
          ].join('')
        }
        if (item.kind === 'reasoning') {
          body = { id: item.id, type: 'reasoning', summary: [{ type: 'summary_text', text: item.text }] }
          return [
            event({ type: 'response.reasoning_summary_text.done', item_id: item.id, output_index: item.index, summary_index: 0, text: item.text }),
            event({ type: 'response.reasoning_summary_part.done', item_id: item.id, output_index: item.index, summary_index: 0, part: body.summary[0] }),
            event({ type: 'response.output_item.done', output_index: item.index, item: (output[item.index] = body) }),
          ].join('')
        }
        body = { id: item.id, type: 'function_call', status: 'completed', call_id: item.callId, name: item.name, arguments: item.text }
        return [
          event({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: item.index, arguments: item.text }),
          event({ type: 'response.output_item.done', output_index: item.index, item: (output[item.index] = body) }),
        ].join('')
      }
      const closeAll = (keep) => {
        const closing = open.filter((item) => !keep?.(item))
        open = open.filter((item) => keep?.(item))
        return closing.map(done).join('')
      }
      const start = (kind, extra = {}) => {
        const index = outputIndex++
        const item = { kind, index, text: '', id: `${{ message: 'msg', reasoning: 'rs', function_call: 'fc' }[kind]}_mock_${index}`, ...extra }
        open.push(item)
        let text
        if (kind === 'message') {
          text =
            event({ type: 'response.output_item.added', output_index: index, item: { id: item.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }) +
            event({ type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } })
        } else if (kind === 'reasoning') {
          text =
            event({ type: 'response.output_item.added', output_index: index, item: { id: item.id, type: 'reasoning', summary: [] } }) +
            event({ type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } })
        } else {
          const added = { id: item.id, type: 'function_call', status: 'in_progress', call_id: item.callId, name: item.name, arguments: '' }
          text = event({ type: 'response.output_item.added', output_index: index, item: added })
        }
        return { item, text }
      }
      const textual = (kind, piece) => {
        let text = ''
        let item = open.find((entry) => entry.kind === kind)
        if (!item || open.length > 1) {
          text += closeAll()
          const started = start(kind)
          item = started.item
          text += started.text
        }
        item.text += piece
        const type = kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_summary_text.delta'
        const where = kind === 'message' ? { content_index: 0, logprobs: [] } : { summary_index: 0 }
        return text + event({ type, item_id: item.id, output_index: item.index, ...where, delta: piece })
      }
      return {
        open: () => [event({ type: 'response.created', response: { ...base('in_progress'), output: [] } }), event({ type: 'response.in_progress', response: { ...base('in_progress'), output: [] } })],
        delta(delta) {
          if (delta.raw !== undefined) return sse(delta.raw)
          if (delta.error) {
            const code = delta.error.code == null ? null : String(delta.error.code)
            if (delta.error.failed) {
              return event({ type: 'response.failed', response: { ...base('failed'), output, error: { code: code ?? 'server_error', message: delta.error.message }, usage: null } })
            }
            return event({ type: 'error', code: code ?? delta.error.type ?? 'server_error', message: delta.error.message, param: null })
          }
          if (delta.content != null) return textual('message', delta.content)
          if (delta.reasoning_content != null) return textual('reasoning', delta.reasoning_content)
          const [part] = delta.tool_calls
          let text = ''
          let item = open.find((entry) => entry.kind === 'function_call' && entry.chatIndex === part.index)
          if (!item) {
            text += closeAll((entry) => entry.kind === 'function_call')
            const started = start('function_call', { chatIndex: part.index, callId: part.id ?? `call_mock_${part.index}`, name: part.function.name ?? '' })
            item = started.item
            text += started.text
          }
          const piece = part.function.arguments ?? ''
          if (!piece) return text
          item.text += piece
          return text + event({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: item.index, delta: piece })
        },
        close(finish, usage) {
          const events = [closeAll()]
          if (finish === null) return events
          const reason = finish === 'length' ? 'max_output_tokens' : finish === 'content_filter' ? 'content_filter' : null
          const u = usage && usageParts(usage)
          const wire = u && {
            input_tokens: u.input,
            input_tokens_details: { cached_tokens: u.cached },
            output_tokens: u.output,
            output_tokens_details: { reasoning_tokens: u.reasoning },
            total_tokens: u.input + u.output,
          }
          const type = reason ? 'response.incomplete' : 'response.completed'
          const response = { ...base(reason ? 'incomplete' : 'completed'), incomplete_details: reason ? { reason } : null, output, usage: wire }
          events.push(event({ type, response }))
          return events
        },
      }
    },
  },

  // Anthropic Messages: `message_start` (with the input usage), content blocks (text, thinking closed by its
  // `signature_delta`, tool_use with `input_json_delta`), `message_delta` (stop reason, output usage), `message_stop`.
  messages: {
    name: 'messages',
    streams: (body) => body?.stream === true,
    errorBody: (status, message) => ({
      type: 'error',
      error: { type: ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message: message ?? `mock error: HTTP ${status}` },
    }),
    invalidBody: (message) => ({ type: 'error', error: { type: 'invalid_request_error', message } }),
    renderer(model, { usage }) {
      const id = `msg_mock_${++completionSeq}`
      let blocks = 0
      let open = []
      const event = (value) => named(value.type, value)
      const stop = (block) =>
        (block.kind === 'thinking' ? event({ type: 'content_block_delta', index: block.index, delta: { type: 'signature_delta', signature: `mock-signature-${block.index}` } }) : '') +
        event({ type: 'content_block_stop', index: block.index })
      const closeAll = (keep) => {
        const closing = open.filter((block) => !keep?.(block))
        open = open.filter((block) => keep?.(block))
        return closing.map(stop).join('')
      }
      const start = (kind, contentBlock, extra = {}) => {
        const block = { kind, index: blocks++, ...extra }
        open.push(block)
        return { block, text: event({ type: 'content_block_start', index: block.index, content_block: contentBlock }) }
      }
      const textual = (kind, piece) => {
        let text = ''
        let block = open.find((entry) => entry.kind === kind)
        if (!block || open.length > 1) {
          text += closeAll()
          const started = start(kind, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' })
          block = started.block
          text += started.text
        }
        const delta = kind === 'text' ? { type: 'text_delta', text: piece } : { type: 'thinking_delta', thinking: piece }
        return text + event({ type: 'content_block_delta', index: block.index, delta })
      }
      const u = usage && usageParts(usage)
      return {
        open() {
          // Anthropic's input_tokens leaves out the cached and cache-written tokens, which it counts apart.
          const startUsage = u
            ? { input_tokens: u.input - u.cached - u.cacheWrite, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: u.cached, output_tokens: 1 }
            : { input_tokens: 0, output_tokens: 0 }
          const message = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: startUsage }
          return [event({ type: 'message_start', message }), event({ type: 'ping' })]
        },
        delta(delta) {
          if (delta.raw !== undefined) return sse(delta.raw)
          if (delta.error) return event({ type: 'error', error: { type: delta.error.type ?? 'overloaded_error', message: delta.error.message } })
          if (delta.content != null) return textual('text', delta.content)
          if (delta.reasoning_content != null) return textual('thinking', delta.reasoning_content)
          const [part] = delta.tool_calls
          let text = ''
          let block = open.find((entry) => entry.kind === 'tool_use' && entry.chatIndex === part.index)
          if (!block) {
            text += closeAll((entry) => entry.kind === 'tool_use')
            const toolUse = { type: 'tool_use', id: part.id ?? `toolu_mock_${part.index}`, name: part.function.name ?? '', input: {} }
            const started = start('tool_use', toolUse, { chatIndex: part.index })
            block = started.block
            text += started.text
          }
          return text + event({ type: 'content_block_delta', index: block.index, delta: { type: 'input_json_delta', partial_json: part.function.arguments ?? '' } })
        },
        close(finish) {
          const events = [closeAll()]
          if (finish !== null) {
            events.push(event({ type: 'message_delta', delta: { stop_reason: ANTHROPIC_STOP[finish], stop_sequence: null }, usage: { output_tokens: u ? u.output : 0 } }))
          }
          events.push(event({ type: 'message_stop' }))
          return events
        },
      }
    },
  },

  // Gemini streamGenerateContent?alt=sse: every event is a whole GenerateContentResponse. Thoughts are parts with
  // `thought: true`; a function call arrives whole (Gemini does not stream arguments), so split arguments are
  // gathered and sent when the call is complete; the last event has the finishReason and usageMetadata.
  gemini: {
    name: 'gemini',
    streams: () => true,
    errorBody: (status, message) => ({ error: { code: status, message: message ?? `mock error: HTTP ${status}`, status: GOOGLE_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } }),
    invalidBody: (message) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }),
    renderer(model, { reasoned }) {
      const responseId = `mock-gemini-${++completionSeq}`
      /** Function calls still gathering their arguments, by Chat Completions index. */
      let calls = new Map()
      const chunk = (parts, extra = {}) => sse({ candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }], modelVersion: model, responseId })
      const callParts = () => {
        const parts = [...calls.values()].map((call) => {
          let args
          try {
            args = call.args ? JSON.parse(call.args) : {}
          } catch {
            args = { arguments: call.args }
          }
          // Gemini signs a thinking model's function calls; the SDK sends the signature back with the call.
          return { functionCall: { id: call.id, name: call.name, args }, ...(reasoned ? { thoughtSignature: 'mock-thought-signature' } : {}) }
        })
        calls = new Map()
        return parts
      }
      const flush = () => (calls.size ? chunk(callParts()) : '')
      return {
        open: () => [],
        delta(delta) {
          if (delta.raw !== undefined) return flush() + sse(delta.raw)
          if (delta.error) {
            const code = typeof delta.error.code === 'number' ? delta.error.code : 500
            return flush() + sse({ error: { code, message: delta.error.message, status: delta.error.type ?? GOOGLE_STATUSES[code] ?? 'INTERNAL' } })
          }
          if (delta.content != null) return flush() + chunk([{ text: delta.content }])
          if (delta.reasoning_content != null) return flush() + chunk([{ text: delta.reasoning_content, thought: true }])
          const [part] = delta.tool_calls
          const call = calls.get(part.index) ?? { id: part.id ?? `call_mock_${part.index}`, name: part.function.name ?? '', args: '' }
          call.args += part.function.arguments ?? ''
          calls.set(part.index, call)
          return ''
        },
        close(finish, usage) {
          const parts = callParts()
          const last = {}
          if (finish !== null) last.candidates = [{ ...(parts.length ? { content: { parts, role: 'model' } } : {}), finishReason: GEMINI_FINISH[finish], index: 0 }]
          else if (parts.length) last.candidates = [{ content: { parts, role: 'model' }, index: 0 }]
          if (usage) {
            const u = usageParts(usage)
            // Gemini's candidatesTokenCount leaves out the thoughts, which thoughtsTokenCount counts.
            last.usageMetadata = {
              promptTokenCount: u.input,
              candidatesTokenCount: u.output - u.reasoning,
              totalTokenCount: u.input + u.output,
              ...(u.cached ? { cachedContentTokenCount: u.cached } : {}),
              ...(u.reasoning ? { thoughtsTokenCount: u.reasoning } : {}),
            }
          }
          if (!last.candidates && !last.usageMetadata) return []
          return [sse({ ...last, modelVersion: model, responseId })]
        },
      }
    },
  },
}

/**
 * Writes SSE events. Without a delay they go out in batches of ~BATCH_CHARS, waiting for 'drain' when the socket
 * buffer is full; with a delay each write carries `perWrite` events (default 1), so a steady rate above what one
 * timer per event allows can be scripted (50 events every 16 ms ≈ 3,000/s). Resolves false if the client went away.
 */
async function writeEvents(res, events, delayMs, closed, perWrite = 1) {
  if (delayMs > 0) {
    for (let i = 0; i < events.length; i += perWrite) {
      if (i > 0) await sleep(delayMs, res)
      if (closed()) return false
      res.write(perWrite === 1 ? events[i] : events.slice(i, i + perWrite).join(''))
    }
    return !closed()
  }
  let batch = ''
  for (const event of events) {
    batch += event
    if (batch.length < BATCH_CHARS) continue
    if (!(await write(res, batch, closed))) return false
    batch = ''
  }
  if (batch && !(await write(res, batch, closed))) return false
  return true
}

/** One write; waits for the data to be flushed to the socket (so dieAfter cuts after, not before, it). */
function write(res, data, closed) {
  if (closed()) return Promise.resolve(false)
  return new Promise((resolve) => {
    const onClose = () => finish(false)
    const finish = (ok) => {
      res.off('close', onClose)
      resolve(ok && !closed())
    }
    res.on('close', onClose)
    res.write(data, () => finish(true))
  })
}

function sleep(ms, res) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      res.off('close', done)
      resolve(undefined)
    }
    const timer = setTimeout(done, ms)
    res.on('close', done)
  })
}

function sendJson(res, status, value) {
  const text = JSON.stringify(value)
  res.writeHead(status, { ...CORS, 'Content-Type': 'application/json' })
  res.end(text)
}

function sendError(res, { status, headers = {}, body }) {
  const payload = body === undefined ? { error: { message: `mock error: HTTP ${status}`, type: 'mock_error', code: status } } : body
  const isText = typeof payload === 'string'
  res.writeHead(status, { ...CORS, 'Content-Type': isText ? 'text/plain' : 'application/json', ...headers })
  res.end(isText ? payload : JSON.stringify(payload))
}

async function readJson(req) {
  let raw = ''
  req.setEncoding('utf8')
  for await (const part of req) raw += part
  if (!raw) return { ok: true, value: null, raw }
  try {
    return { ok: true, value: JSON.parse(raw), raw }
  } catch (err) {
    return { ok: false, error: `request body is not JSON: ${err.message}`, raw }
  }
}

// ── script mode ──────────────────────────────────────────────────────────────────────────────────────────────────

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8787)
  const server = await startMockModelServer({ port, host: process.env.HOST ?? '127.0.0.1', verbose: !!process.env.MOCK_MODEL_VERBOSE })
  console.log(`mock model server listening on ${server.url}`)
  const stop = () => server.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
