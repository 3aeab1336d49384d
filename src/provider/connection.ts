import { localServerLimits } from './local-limits'
import type { ConnectionResult, RemoteModel } from '../core/protocol'
import { matchModel } from '../core/provider/catalog'
import { ConnectionError } from '../core/provider/errors'
import { isLocalHost, isLocalServerURL, isLoopbackHost, presetForURL, providerTypeInfo } from '../core/provider/presets'
import type { ModelInfo, ProviderConfig, ProviderType } from '../core/provider/schema'
import { closeMatches } from '../core/provider/suggest'
import { redactSecrets } from '../core/redact'

export type ConnectionFailure = Extract<ConnectionResult, { status: 'failed' }>

/** What a connection needs: a stored provider or the settings form's unsaved values. */
export interface ConnectionTarget {
  type: ProviderType
  name?: string
  baseURL?: string
  apiKey?: string
}

export interface ConnectionOptions {
  fetch?: typeof fetch
  /** This page's origin, quoted in CORS fixes (`OLLAMA_ORIGINS=…`). */
  origin?: string
  /**
   * Whether a failed `no-cors` retry proves that nothing answered. Under COEP `require-corp` the browser also blocks
   * the opaque answer of a live server that sends no CORP header, so the retry fails either way (`inconclusive`);
   * without isolation, or with COEP `credentialless`, an opaque answer comes back and tells CORS apart.
   */
  opaqueProbe?: 'conclusive' | 'inconclusive'
  timeoutMs?: number
  signal?: AbortSignal
  now?: () => number
}

export const CONNECTION_TIMEOUT_MS = 15_000
const PROBE_TIMEOUT_MS = 5_000
const PROVIDER_MESSAGE_LIMIT = 300

export type ModelListing = { ok: true; models: RemoteModel[]; latencyMs: number } | { ok: false; failure: ConnectionFailure }

/**
 * Lists a provider's models through its own API. Never throws for a provider's answer: every way it can go wrong
 * comes back as a failure whose `cause` names it and whose message says what to do; no message carries the key.
 */
export async function fetchModelList(target: ConnectionTarget, options: ConnectionOptions = {}): Promise<ModelListing> {
  const key = target.apiKey?.trim() || undefined
  const request = buildListRequest({ ...target, apiKey: key })
  const secrets = [key]
  const now = options.now ?? (() => performance.now())
  const started = now()
  const answer = await send(request, target, options)
  if (!answer.ok) return { ok: false, failure: redactFailure(answer.failure, secrets) }
  const latencyMs = Math.round(now() - started)
  const { response, text } = answer
  const label = labelOf(target)
  if (response.status === 401 || response.status === 403 || isKeyRejection(response.status, text)) {
    const detail = providerMessage(text)
    const message = key
      ? `${label} refused the key (${response.status}${detail ? `: ${detail}` : ''}). Check that it is complete and still valid.`
      : `${label} needs an API key (${response.status}${detail ? `: ${detail}` : ''}).`
    return { ok: false, failure: redactFailure({ status: 'failed', cause: 'auth', message, statusCode: response.status }, secrets) }
  }
  if (!response.ok) return { ok: false, failure: redactFailure(httpFailure(request.url, response, text, label), secrets) }
  const body = parseJSON(text)
  if (body === undefined) {
    const type = response.headers.get('content-type')?.split(';')[0]?.trim()
    const message =
      `${displayURL(request.url)} answered with ${type ? `${type}` : 'something'} that is not JSON. ` +
      'Check that the base URL is the API root (for most servers it ends in /v1).'
    return { ok: false, failure: redactFailure({ status: 'failed', cause: 'invalid-response', message }, secrets) }
  }
  const models = readModelList(target.type, body, target.baseURL)
  if (!models) {
    const message = `${displayURL(request.url)} answered JSON without a model list. Check that the base URL is the API root (for most servers it ends in /v1).`
    return { ok: false, failure: redactFailure({ status: 'failed', cause: 'invalid-response', message }, secrets) }
  }
  // Only servers on this machine or its network are asked: a hosted OpenAI-compatible API has no such endpoints, and
  // requests to paths it never offered are not ours to send.
  if (target.type === 'openai-compatible' && target.baseURL && isLocalServerURL(target.baseURL)) {
    const unknown = models.filter((model) => !model.known).map((model) => model.id)
    const reported = await localServerLimits(target.baseURL, unknown, {
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    for (const [index, model] of models.entries()) {
      const limits = reported.get(model.id)
      if (limits) models[index] = withKnowledge(target.type, model.id, model.name, limits, undefined, target.baseURL)
    }
  }
  return { ok: true, models, latencyMs }
}

/** The models a stored provider offers, with what tabcode knows about each; throws a ConnectionError otherwise. */
export async function listRemoteModels(config: ProviderConfig, options: ConnectionOptions = {}): Promise<RemoteModel[]> {
  const listing = await fetchModelList(config, options)
  if (!listing.ok) throw new ConnectionError(listing.failure)
  return listing.models
}

/** "Test connection": lists the models with the given settings and, if asked, checks that one of them exists. */
export async function testConnection(
  target: ConnectionTarget,
  modelID?: string,
  options: ConnectionOptions = {},
): Promise<ConnectionResult> {
  const listing = await fetchModelList(target, options)
  if (!listing.ok) return listing.failure
  const ids = listing.models.map((model) => model.id)
  const wanted = modelID?.trim()
  if (wanted && !ids.some((id) => sameModel(wanted, id))) {
    const suggestions = closeMatches(wanted, ids)
    const label = labelOf(target)
    const hint = suggestions.length
      ? ` Did you mean ${suggestions.map((id) => `“${id}”`).join(' or ')}?`
      : ids.length
        ? ` It lists ${ids.length} model${ids.length === 1 ? '' : 's'}, such as ${ids
            .slice(0, 3)
            .map((id) => `“${id}”`)
            .join(', ')}.`
        : ' It lists no models at all.'
    return { status: 'failed', cause: 'unknown-model', message: `${label} has no model “${wanted}”.${hint}` }
  }
  return { status: 'ok', models: ids, listed: listing.models, latencyMs: listing.latencyMs }
}

/** Whether a failed opaque retry proves the host unreachable, from this context's isolation and COEP header. */
export function opaqueProbeFor(crossOriginIsolated: boolean, embedderPolicy: string | null): 'conclusive' | 'inconclusive' {
  if (!crossOriginIsolated) return 'conclusive'
  return embedderPolicy?.includes('credentialless') ? 'conclusive' : 'inconclusive'
}

// Key redaction is core's (the console log uses it too); re-exported for this folder's callers.
export { redactSecrets }

interface ListRequest {
  url: string
  headers: Record<string, string>
}

function buildListRequest(target: ConnectionTarget): ListRequest {
  const base = (target.baseURL?.trim() || providerTypeInfo(target.type).defaultBaseURL || '').replace(/\/+$/, '')
  const key = target.apiKey
  switch (target.type) {
    case 'anthropic':
      return {
        url: `${base}/models?limit=1000`,
        headers: {
          ...(key ? { 'x-api-key': key } : {}),
          'anthropic-version': '2023-06-01',
          'anthropic-dangerous-direct-browser-access': 'true',
        },
      }
    case 'google':
      // The header keeps the key out of the URL, which ends up in error messages and logs.
      return { url: `${base}/models?pageSize=1000`, headers: key ? { 'x-goog-api-key': key } : {} }
    case 'openai':
    case 'openai-compatible':
      // Without a key the GET stays a "simple" request: no preflight, which some local servers don't answer.
      return { url: `${base}/models`, headers: key ? { authorization: `Bearer ${key}` } : {} }
  }
}

type Answer = { ok: true; response: Response; text: string } | { ok: false; failure: ConnectionFailure }

async function send(request: ListRequest, target: ConnectionTarget, options: ConnectionOptions): Promise<Answer> {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return fail('unreachable', `“${request.url}” is not a URL; the base URL should look like https://host/v1.`)
  }
  const mixed = mixedContent(url, options.origin)
  if (mixed) return fail('unreachable', mixed)
  const timeoutMs = options.timeoutMs ?? CONNECTION_TIMEOUT_MS
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetchImpl(request.url, { method: 'GET', headers: request.headers, signal })
  } catch (error) {
    if (options.signal?.aborted) throw error
    if (timeout.aborted) {
      return fail('unreachable', `${url.host} did not answer within ${Math.round(timeoutMs / 1000)} s. ${startHint(url, options)}`)
    }
    if (isHeaderError(error)) {
      return fail('auth', 'The API key contains characters that cannot be sent in a request (spaces, quotes or line breaks). Paste it again.')
    }
    return classifyNetworkFailure(url, target, options)
  }
  let text: string
  try {
    text = await response.text()
  } catch {
    return fail('invalid-response', `${url.host} closed the connection before its answer was complete.`)
  }
  return { ok: true, response, text }
}

/**
 * `fetch` rejects with the same TypeError whether the server is down or refused this origin (CORS). The same URL
 * fetched `no-cors` (no headers, so no preflight) tells them apart: an opaque answer means something is listening.
 */
async function classifyNetworkFailure(url: URL, target: ConnectionTarget, options: ConnectionOptions): Promise<Answer> {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
  let answered = false
  try {
    await fetchImpl(url.href, { method: 'GET', mode: 'no-cors', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    answered = true
  } catch {
    answered = false
  }
  // The hosted APIs allow browsers, so only the network or something on it (proxy, firewall, extension) can be at fault.
  if (target.type !== 'openai-compatible' && !target.baseURL) {
    const label = providerTypeInfo(target.type).label
    return answered
      ? fail('cors', `${url.host} answered, but the browser blocked the response (CORS). ${label}'s API allows browsers, so something in between (a proxy, a firewall or a browser extension) changed it.`)
      : fail('unreachable', `Couldn't reach ${url.host}. Check your internet connection; a proxy, a firewall or a browser extension may also block it.`)
  }
  const fix = corsFix(url, target, options)
  if (answered) {
    return fail('cors', `${url.host} is running but refused requests from this page (CORS). ${fix}`)
  }
  if (options.opaqueProbe === 'inconclusive') {
    return fail(
      'unreachable',
      `Couldn't connect to ${url.host}. Either nothing answers there, or it refuses requests from this page (CORS); ` +
        `this page can't tell which. ${startHint(url, options)} If it is running: ${fix}`,
    )
  }
  return fail('unreachable', `Couldn't reach ${url.host}: nothing answered there. ${startHint(url, options)}`)
}

function corsFix(url: URL, target: ConnectionTarget, options: ConnectionOptions): string {
  const origin = options.origin ?? 'this page’s origin'
  const preset = target.type === 'openai-compatible' ? presetForURL(url.href) : undefined
  if (preset) return preset.corsFix.replaceAll('{origin}', origin)
  return `Allow ${origin} in the server's CORS settings (Access-Control-Allow-Origin), with the Authorization header allowed.`
}

function startHint(url: URL, options: ConnectionOptions): string {
  const preset = presetForURL(url.href)
  const local = isLocalHost(url.hostname)
  const hints = [preset?.startHint ?? (local ? 'Check that the server is running and listens on that port.' : 'Check the address and your connection.')]
  const pageIsLocal = options.origin ? isLoopbackHost(new URL(options.origin).hostname) : true
  if (local && !pageIsLocal) {
    hints.push('If the browser asked whether this site may reach devices on your local network, allow it.')
  }
  return hints.join(' ')
}

/** An https page may not call plain http, except on this machine; the browser blocks it before any request. */
function mixedContent(url: URL, origin: string | undefined): string | undefined {
  if (!origin?.startsWith('https:') || url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined
  return `This page is served over https, so the browser blocks plain http requests to ${url.host} (mixed content). Serve the endpoint over https, or reach it through localhost.`
}

function httpFailure(url: string, response: Response, text: string, label: string): ConnectionFailure {
  const detail = providerMessage(text)
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
  const said = detail ? `: ${detail}` : ''
  if (response.status === 404) {
    return {
      status: 'failed',
      cause: 'http',
      statusCode: 404,
      message:
        `${displayURL(url)} answered ${status}${said}. Check the base URL (OpenAI-compatible servers usually end in /v1); ` +
        'if this server does not list its models, add model ids by hand.',
    }
  }
  if (response.status === 429) {
    return { status: 'failed', cause: 'http', statusCode: 429, message: `${label} is rate limiting requests (${status})${said}. Try again in a moment.` }
  }
  return { status: 'failed', cause: 'http', statusCode: response.status, message: `${label} answered ${status}${said}` }
}

/** Gemini answers a bad key with 400 INVALID_ARGUMENT rather than 401. */
function isKeyRejection(status: number, text: string): boolean {
  return status === 400 && /API_KEY_INVALID|API key not valid|invalid api key/i.test(text)
}

/** The provider's own sentence from an error body (OpenAI, Anthropic, Gemini, Ollama and FastAPI shapes). */
function providerMessage(text: string): string {
  const body = parseJSON(text) as Record<string, unknown> | undefined
  let message: unknown
  if (body && typeof body === 'object') {
    const error = body.error
    message =
      (error && typeof error === 'object' ? (error as Record<string, unknown>).message : error) ?? body.message ?? body.detail
    if (Array.isArray(message)) message = message.map((item) => (item as { msg?: unknown })?.msg ?? item).join('; ')
  }
  const sentence = typeof message === 'string' ? message : !body && !/^\s*</.test(text) ? text : ''
  const single = sentence.replace(/\s+/g, ' ').trim()
  return single.length > PROVIDER_MESSAGE_LIMIT ? `${single.slice(0, PROVIDER_MESSAGE_LIMIT - 1)}…` : single
}

const NOT_CHAT = /embed|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|gpt-image|realtime|audio|sora/

function readModelList(type: ProviderType, body: unknown, baseURL: string | undefined): RemoteModel[] | undefined {
  const record = body as Record<string, unknown> | null
  const list = Array.isArray(body) ? body : Array.isArray(record?.data) ? record.data : Array.isArray(record?.models) ? record.models : undefined
  if (!list) return undefined
  const models: RemoteModel[] = []
  const seen = new Set<string>()
  for (const item of list) {
    const entry = (typeof item === 'string' ? { id: item } : item) as Record<string, unknown> | null
    if (!entry || typeof entry !== 'object') continue
    const model = type === 'google' ? readGeminiModel(entry) : readListedModel(type, entry, baseURL)
    if (!model || seen.has(model.id)) continue
    seen.add(model.id)
    models.push(model)
  }
  return models.sort((left, right) => left.id.localeCompare(right.id))
}

function readGeminiModel(entry: Record<string, unknown>): RemoteModel | undefined {
  const name = typeof entry.name === 'string' ? entry.name : undefined
  if (!name) return undefined
  const methods = entry.supportedGenerationMethods
  if (Array.isArray(methods) && !methods.includes('generateContent')) return undefined
  const id = name.replace(/^models\//, '')
  return withKnowledge('google', id, stringOf(entry.displayName), {
    context: numberOf(entry.inputTokenLimit),
    output: numberOf(entry.outputTokenLimit),
  })
}

function readListedModel(type: ProviderType, entry: Record<string, unknown>, baseURL: string | undefined): RemoteModel | undefined {
  const id = stringOf(entry.id) ?? stringOf(entry.model) ?? stringOf(entry.name)
  if (!id) return undefined
  if (type === 'openai' && NOT_CHAT.test(id)) return undefined
  const topProvider = (entry.top_provider ?? {}) as Record<string, unknown>
  const meta = (entry.meta ?? {}) as Record<string, unknown>
  const pricing = (entry.pricing ?? undefined) as Record<string, unknown> | undefined
  const perMillion = (value: unknown) => {
    const perToken = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : undefined
    return perToken !== undefined && Number.isFinite(perToken) && perToken >= 0 ? round(perToken * 1_000_000) : undefined
  }
  return withKnowledge(
    type,
    id,
    stringOf(entry.display_name) ?? (stringOf(entry.name) !== id ? stringOf(entry.name) : undefined),
    {
      // OpenRouter: context_length; Groq: context_window; vLLM: max_model_len; llama.cpp: meta.n_ctx_train.
      context:
        numberOf(entry.context_length) ??
        numberOf(entry.context_window) ??
        numberOf(entry.max_model_len) ??
        numberOf(entry.max_context_length) ??
        numberOf(meta.n_ctx_train),
      output: numberOf(topProvider.max_completion_tokens) ?? numberOf(entry.max_completion_tokens),
    },
    pricing && {
      input: perMillion(pricing.prompt),
      output: perMillion(pricing.completion),
      cacheRead: perMillion(pricing.input_cache_read),
      cacheWrite: perMillion(pricing.input_cache_write),
    },
    baseURL,
  )
}

/**
 * Joins the model facts with what the server says. A hosted model's facts win; for open models the
 * server's own context (how it was started) beats the family default, and a server's prices (OpenRouter) beat 0.
 */
function withKnowledge(
  type: ProviderType,
  id: string,
  name: string | undefined,
  limits: { context?: number; output?: number },
  prices?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number },
  baseURL?: string,
): RemoteModel {
  // Groq's and OpenRouter's own lists (with their prices) answer for their hosts.
  const match = matchModel(type, id, { baseURL })
  const model: RemoteModel = { id, ...(name ? { name } : {}) }
  if (match && match.source !== 'pattern') return { ...model, known: match.info }
  const context = limits.context ?? match?.info.limit.context
  if (context === undefined) return model
  // A server that reports its context but not an output cap: the family's cap if one is known, else a modest one.
  const output = Math.min(context, limits.output ?? match?.info.limit.output ?? 8_192)
  const known: ModelInfo = {
    ...(match?.info ?? { id, cost: { input: 0, output: 0 } }),
    id,
    limit: { context, output },
  }
  if (prices?.input !== undefined && prices.output !== undefined) {
    known.cost = {
      input: prices.input,
      output: prices.output,
      ...(prices.cacheRead !== undefined ? { cacheRead: prices.cacheRead } : {}),
      ...(prices.cacheWrite !== undefined ? { cacheWrite: prices.cacheWrite } : {}),
    }
  }
  return { ...model, known }
}

/** Listed ids and configured ids name the same model across tags, dates and aliases (`x` ~ `x:latest`). */
function sameModel(wanted: string, listed: string): boolean {
  if (wanted === listed) return true
  const bare = (id: string) =>
    id
      .toLowerCase()
      .replace(/^models\//, '')
      .replace(/:latest$/, '')
      .replace(/-latest$/, '')
      .replace(/-\d{8}$/, '')
      .replace(/-\d{4}-\d{2}-\d{2}$/, '')
  return bare(wanted) === bare(listed)
}

function labelOf(target: ConnectionTarget): string {
  return target.name?.trim() || providerTypeInfo(target.type).label
}

function displayURL(url: string): string {
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}

function fail(cause: ConnectionFailure['cause'], message: string): Answer {
  return { ok: false, failure: { status: 'failed', cause, message } }
}

function redactFailure(failure: ConnectionFailure, secrets: readonly (string | undefined)[]): ConnectionFailure {
  return { ...failure, message: redactSecrets(failure.message, secrets) }
}

function isHeaderError(error: unknown): boolean {
  return error instanceof TypeError && /ISO-8859-1|header|invalid value|ByteString/i.test(error.message)
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const stringOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined)
const numberOf = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined
const round = (value: number) => Math.round(value * 1_000_000) / 1_000_000
