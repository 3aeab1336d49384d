#!/usr/bin/env node
// A scriptable OpenAI-compatible model server for e2e and provider tests. Node `http` only, no dependencies.
//
//   node e2e/support/mock-model-server.mjs          # listens on 127.0.0.1:$PORT (default 8787)
//   const { url, close } = await startMockModelServer({ port: 0 })   # from a test, on a random port
//
// Tests script it over HTTP (e2e/support/model-script.ts wraps this with types):
//   POST /__script   { model?, responses: Response[] }   queue responses (per model id, or the shared queue)
//   POST /__reset                                        clear queues, request log and /v1/models scripting
//   POST /__models   { ids?, fail? }                     script GET /v1/models
//   GET  /__requests?wait=N&settled=1&timeoutMs=&path=   request log; wait long-polls (≤ 10 s) for N requests
//   GET  /__queues                                       responses still queued, by queue
// The browser worker calls /v1/* cross-origin from the app (127.0.0.1:4173) under COEP require-corp, so every
// response carries CORS headers (toolchain.md §5 (2)); CORS alone is enough there, no CORP header is needed.
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
const SECRET_HEADERS = ['authorization', 'x-api-key', 'api-key']

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
      return listModels(state, req, res, url)
    case 'POST /v1/chat/completions':
      return chatCompletions(state, req, res, url)
    case 'POST /__script':
      return script(state, req, res)
    case 'POST /__reset':
      reset(state)
      sendJson(res, 200, { ok: true })
      return
    case 'POST /__models':
      return scriptModels(state, req, res)
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
    default:
      sendJson(res, 404, { error: { message: `mock model server: no route for ${route}`, type: 'not_found' } })
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
  for (const live of state.live) live.abort('reset')
  state.queues.clear()
  state.log = []
  state.models = { ids: [...DEFAULT_MODEL_IDS], fail: null }
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
  const wanted = Number(url.searchParams.get('wait') ?? 0)
  const settled = ['1', 'true'].includes(url.searchParams.get('settled') ?? '')
  const timeoutMs = Math.min(WAIT_LIMIT_MS, Number(url.searchParams.get('timeoutMs') ?? WAIT_LIMIT_MS))
  if (!Number.isInteger(wanted) || wanted < 0) return sendJson(res, 400, { error: '`wait` must be a whole number' })
  if (!(timeoutMs >= 0)) return sendJson(res, 400, { error: '`timeoutMs` must be a number' })

  const selected = () => state.log.filter((entry) => path === '*' || entry.path === path)
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
          error: `timed out after ${timeoutMs} ms waiting for ${what} ${path} request(s); have ${have.length}`,
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

async function listModels(state, req, res, url) {
  const entry = record(state, req, url, null)
  const fail = state.models.fail
  if (fail) {
    fail.remaining -= 1
    if (fail.remaining <= 0) state.models.fail = null
    entry.served = { source: 'models', type: 'error' }
    sendError(res, fail)
  } else {
    entry.served = { source: 'models', type: 'list' }
    const data = state.models.ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'mock' }))
    sendJson(res, 200, { object: 'list', data })
  }
  settle(state, entry, 'completed')
}

async function chatCompletions(state, req, res, url) {
  const body = await readJson(req)
  const entry = record(state, req, url, body.ok ? body.value : null)
  if (!body.ok) {
    entry.rawBody = body.raw
    entry.served = { source: 'invalid', type: 'error' }
    sendError(res, { status: 400, body: { error: { message: body.error, type: 'invalid_request_error', code: null } } })
    settle(state, entry, 'completed')
    return
  }
  const model = typeof body.value?.model === 'string' ? body.value.model : ''
  const next = take(state, model)
  entry.served = { source: next.source, type: next.response.type }
  const response = normalize(next.response)
  const stream = body.value?.stream === true

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
  if (closed()) return
  if (response.type === 'error') {
    sendError(res, response)
    return
  }
  const deltas = buildDeltas(response.chunks)
  const model_ = model || 'mock-model'
  const stopAfter = response.hangAfter ?? response.dieAfter
  const stopAction = response.hangAfter != null ? 'hang' : response.dieAfter != null ? 'die' : null

  if (!stream) {
    // generateText (doGenerate) posts without `stream: true` and expects one JSON completion.
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
  const envelope = chunkEnvelope(model_)
  const count = stopAction ? Math.min(stopAfter, deltas.length) : deltas.length
  const events = deltas.slice(0, count).map((delta) => envelope(delta))
  if (!stopAction) {
    const finish = response.finish === undefined ? defaultFinish(deltas) : response.finish
    if (finish !== null) events.push(envelope({}, finish))
    if (response.usage !== null) events.push(usageEvent(model_, usageOf(response, deltas)))
    events.push('data: [DONE]\n\n')
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

function record(state, req, url, body) {
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
    model: typeof body?.model === 'string' ? body.model : null,
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
  const kinds = ['text', 'reasoning', 'toolCall', 'raw'].filter((kind) => kind in c)
  if (kinds.length !== 1) return 'needs exactly one of text, reasoning, toolCall, raw'
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
  if (deltas[0] && !('raw' in deltas[0])) deltas[0] = { role: 'assistant', ...deltas[0] }
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
