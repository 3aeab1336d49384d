/**
 * Typed client for test-servers/mock-model-server.mjs, for Playwright and vitest (plain `fetch`, no Playwright import).
 *
 *   const model = new ModelScript()                       // http://127.0.0.1:8787, the webServer in playwright.config.ts
 *   await model.reset()
 *   await model.push([streamText('Hello there', { split: 3 })], { model: 'mock-model' })
 *   … drive the app with baseURL model.baseURL …
 *   const [request] = await model.waitForRequests(1)
 *
 * The server speaks Chat Completions, OpenAI Responses, Anthropic Messages and Gemini, and one scripted response
 * renders in whichever format the request came in (usage is always written in the Chat Completions shape below).
 *
 * Each model request takes the next response from its model's queue (`push(…, { model })`), else from the shared
 * queue (`push(…)` without a model), else gets the default text "(no scripted response)". Push the main model's
 * script with `model` when another call (title generation on 'mock-small') could otherwise take it.
 */

import { lanePort } from './lane'

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter'

/** The wire formats, named as the request log names them. */
export type WireFormat = 'chat' | 'responses' | 'messages' | 'gemini'

/**
 * OpenAI usage; `total_tokens` defaults to the sum. `prompt_tokens` counts every input token, cached ones included;
 * the other formats get it in their own terms (Anthropic: `input_tokens` without the cache read and write tokens,
 * `cache_read_input_tokens`, `cache_creation_input_tokens`; Gemini: `candidatesTokenCount` without the thoughts).
 */
export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens?: number
  /** `cache_write_tokens`: tokens written to the prompt cache (Anthropic's cache_creation_input_tokens). */
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number }
  completion_tokens_details?: { reasoning_tokens?: number }
}

/**
 * An error inside a 200 stream, in the request's format: Chat Completions `{ error: { message, type, code } }`,
 * Responses `error` event (or `response.failed` with `failed`), Anthropic `event: error` (type default
 * 'overloaded_error'), Gemini `{ error: { code, message, status } }`.
 */
export interface StreamError {
  message: string
  type?: string
  code?: string | number
  /** Responses only: send `response.failed` instead of an `error` event. */
  failed?: boolean
}

/**
 * One piece of a streamed answer. `split: N` cuts the text (or tool arguments) into N-character deltas.
 * Tool calls: a chunk with a new `id` starts a call at the next index; a chunk with a known `id`, or the same `index`,
 * or neither (continues the last call), appends to `arguments`. The id, `type` and name go out only in a call's
 * first delta, as OpenAI does. `raw` is sent verbatim as one `data:` event (an object is JSON-encoded).
 */
export type Chunk =
  | { text: string; split?: number }
  | { reasoning: string; split?: number }
  | { toolCall: { id?: string; name?: string; arguments?: string; index?: number }; split?: number }
  | { raw: unknown }
  | { error: StreamError }

interface EntryOptions {
  /** Serve this entry N times (default 1). */
  repeat?: number
  /** Wait this long before answering at all (before the status line). */
  delayMs?: number
  /** Answer only once `release(hold)` was called (before the status line, after `delayMs`). */
  hold?: string
}

interface EndingOptions {
  /** Default: 'tool_calls' when the stream has a tool call, else 'stop'. `null` sends no finish chunk. */
  finish?: FinishReason | null
  /** Default: prompt 10, completion ≈ streamed characters / 4. `null` sends no usage chunk. */
  usage?: Usage | null
}

export interface StreamResponse extends EntryOptions, EndingOptions {
  type: 'stream'
  chunks: Chunk[]
  /** Delay between deltas. 0 (default) writes them in ~64 KB batches. */
  chunkDelayMs?: number
  /** With `chunkDelayMs`: send this many events per write, then wait (default 1); 50 every 16 ms ≈ 3,000 deltas/s. */
  eventsPerWrite?: number
  /** Send this many deltas (after splitting), then keep the connection open with no finish until the client aborts. */
  hangAfter?: number
  /** Send this many deltas (after splitting), then destroy the socket. */
  dieAfter?: number
}

export interface TextResponse extends EntryOptions, EndingOptions {
  type: 'text'
  /** Streamed as a single delta (or one JSON completion for non-streaming requests). */
  text: string
}

export interface ErrorResponse extends EntryOptions {
  type: 'error'
  status: number
  /** e.g. `{ 'retry-after': '1' }` or `{ 'retry-after-ms': '200' }` (exposed to the browser by CORS). */
  headers?: Record<string, string>
  /**
   * JSON body (or a string sent as text/plain), sent as is. Default: the format's own error body with `message`
   * (OpenAI `{ error: { message, type: 'mock_error', code: <status> } }`, Anthropic `{ type: 'error', error: { type,
   * message } }`, Gemini `{ error: { code, message, status } }`).
   */
  body?: unknown
  /** Default 'mock error: HTTP <status>'. */
  message?: string
}

export type ScriptedResponse = StreamResponse | TextResponse | ErrorResponse

export type RequestOutcome =
  | 'pending' // still being answered (streaming or hanging)
  | 'completed' // the server sent the whole response
  | 'client-closed' // the client went away first (abort)
  | 'died' // dieAfter destroyed the socket
  | 'reset' // POST /__reset cut it
  | 'server-closed' // the server was closed under it

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {})
  content?: string | Array<{ type: string; text?: string; [key: string]: unknown }> | null
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
  tool_call_id?: string
  reasoning_content?: string
  [key: string]: unknown
}

/** The parsed JSON body of a chat completion request (as @ai-sdk/openai-compatible sends it). */
export interface ChatRequestBody {
  model: string
  messages: ChatMessage[]
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>
  tool_choice?: unknown
  [key: string]: unknown
}

export interface RecordedRequest<Body = ChatRequestBody> {
  /** 1, 2, 3… since the server started (not reset by /__reset). */
  id: number
  method: string
  path: string
  /** The model asked for (`body.model`, or Gemini's path); null for other requests. */
  model: string | null
  /** Which wire format a model request used; absent for other requests. */
  format?: WireFormat
  /** Lower-case names. `authorization` reads 'Bearer <redacted>'; `x-api-key` / `api-key` read '<redacted>'. */
  headers: Record<string, string>
  hasAuthorization: boolean
  /** Last 4 characters of the key (from `authorization` without "Bearer ", else x-api-key / api-key); null if none. */
  apiKeyLast4: string | null
  /** Parsed JSON; null when empty or not JSON (then `rawBody` holds the text and the answer was a 400). */
  body: Body | null
  rawBody?: string
  receivedAt: number
  settledAt?: number
  /** Which queue answered: the model's own, the shared one, or the default text. */
  served: { source: 'model' | 'shared' | 'default' | 'models' | 'invalid'; type: 'stream' | 'text' | 'error' | 'list' } | null
  outcome: RequestOutcome
}

/** Queued responses left, by queue name (a model id, or 'shared'). Empty queues are left out. */
export type QueueSizes = Record<string, number>

export interface ModelsFailure {
  status: number
  headers?: Record<string, string>
  body?: unknown
  /** Fail this many GET /v1/models calls, then list again (default: until reset). */
  repeat?: number
}

export const MOCK_MODEL_SERVER_URL = `http://127.0.0.1:${lanePort(Number(process.env.TABCODE_MOCK_PORT ?? 8787))}`

export class ModelScript {
  /** `url` is the server root (no /v1). */
  constructor(readonly url: string = MOCK_MODEL_SERVER_URL) {}

  /** The OpenAI-compatible base URL to configure in the app / provider: `${url}/v1`. */
  get baseURL(): string {
    return `${this.url}/v1`
  }

  /** Clears every queue, the request log and /v1/models scripting, and cuts streams still open. */
  async reset(): Promise<void> {
    await this.call('POST', '/__reset')
  }

  /** Lets the responses scripted with `hold: name` answer, now and from now on until the next reset. */
  async release(name: string): Promise<void> {
    await this.call('POST', '/__release', { name })
  }

  /** Queues responses for `options.model` (that model id only) or, without it, for any model. */
  async push(responses: ScriptedResponse | ScriptedResponse[], options: { model?: string } = {}): Promise<QueueSizes> {
    const list = Array.isArray(responses) ? responses : [responses]
    return this.call<QueueSizes>('POST', '/__script', { model: options.model, responses: list })
  }

  /** Responses still queued; `{}` when every scripted response was used. */
  async pending(): Promise<QueueSizes> {
    return this.call<QueueSizes>('GET', '/__queues')
  }

  /** Sets the ids GET /v1/models lists (default ['mock-model', 'mock-small']). */
  /** How many requests `GET /slow` (a page that never finishes) received, and how many the client closed. */
  async slow(): Promise<{ opened: number; closed: number }> {
    return (await fetch(`${this.url}/__slow`)).json() as Promise<{ opened: number; closed: number }>
  }

  async setModels(ids: string[]): Promise<void> {
    await this.call('POST', '/__models', { ids })
  }

  /** Makes GET /v1/models fail; `null` lists again. */
  async failModels(failure: ModelsFailure | null): Promise<void> {
    await this.call('POST', '/__models', { fail: failure })
  }

  /**
   * The request log, oldest first. Default: chat completions; `format` for one wire format's model requests,
   * `path: '/v1/models'`, or `'*'` for everything.
   */
  async requests<Body = ChatRequestBody>(options: { path?: string; format?: WireFormat } = {}): Promise<RecordedRequest<Body>[]> {
    return this.call<RecordedRequest<Body>[]>('GET', `/__requests${query({ path: options.path, format: options.format })}`)
  }

  /**
   * Resolves with the log once at least `count` requests arrived (`settled`: and the first `count` of them finished,
   * were aborted or died). Long-polls the server, at most `timeoutMs` (≤ 10,000, the default), then throws.
   */
  async waitForRequests<Body = ChatRequestBody>(
    count: number,
    options: { settled?: boolean; timeoutMs?: number; path?: string; format?: WireFormat } = {},
  ): Promise<RecordedRequest<Body>[]> {
    const { settled, timeoutMs, path, format } = options
    const search = query({ wait: count, settled: settled ? 1 : undefined, timeoutMs, path, format })
    return this.call<RecordedRequest<Body>[]>('GET', `/__requests${search}`)
  }

  private async call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.url + path, {
      method,
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const data: unknown = await response.json()
    if (!response.ok) {
      const { error, requests } = data as { error?: unknown; requests?: RecordedRequest[] }
      const seen = requests?.map((r) => `#${r.id} ${r.model ?? r.path} ${r.outcome}`).join(', ')
      throw new Error(`mock model server ${method} ${path}: ${String(error)}${seen ? ` (seen: ${seen})` : ''}`)
    }
    return data as T
  }
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

// ── chunk builders ───────────────────────────────────────────────────────────────────────────────────────────────

export const chunk = {
  text: (text: string, split?: number): Chunk => ({ text, split }),
  reasoning: (text: string, split?: number): Chunk => ({ reasoning: text, split }),
  /** One tool call; `split` cuts the JSON arguments into N-character deltas at the same index. */
  toolCall: (id: string, name: string, args: Record<string, unknown> | string, split?: number): Chunk => ({
    toolCall: { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    split,
  }),
  raw: (value: unknown): Chunk => ({ raw: value }),
  /** An error event inside a 200 stream, in the request's format (see StreamError); the provider makes it an `error` part. */
  error: (message: string, options: Omit<StreamError, 'message'> = {}): Chunk => ({ error: { message, ...options } }),
}

// ── response builders ────────────────────────────────────────────────────────────────────────────────────────────

type StreamOptions = EntryOptions & EndingOptions & Pick<StreamResponse, 'chunkDelayMs' | 'eventsPerWrite' | 'hangAfter' | 'dieAfter'>

/** Any stream. */
export function stream(chunks: Chunk[], options: StreamOptions = {}): StreamResponse {
  return { type: 'stream', chunks, ...options }
}

/** The whole text as one delta. */
export function text(content: string, options: EntryOptions & EndingOptions = {}): TextResponse {
  return { type: 'text', text: content, ...options }
}

/** Text streamed in `split`-character deltas (default 4), optionally after streamed reasoning. */
export function streamText(
  content: string,
  options: Omit<StreamOptions, 'hangAfter' | 'dieAfter'> & { split?: number; reasoning?: string } = {},
): StreamResponse {
  const { split = 4, reasoning, ...rest } = options
  const chunks: Chunk[] = reasoning ? [chunk.reasoning(reasoning, split), chunk.text(content, split)] : [chunk.text(content, split)]
  return stream(chunks, rest)
}

/** A turn that ends in one tool call (finish 'tool_calls'); `split` streams the arguments in pieces. */
export function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown> | string,
  options: Omit<StreamOptions, 'hangAfter' | 'dieAfter'> & { split?: number; text?: string } = {},
): StreamResponse {
  return toolCalls([{ id, name, args }], options)
}

/** A turn with parallel tool calls (indexes 0, 1, …), optionally preceded by text. */
export function toolCalls(
  calls: Array<{ id: string; name: string; args: Record<string, unknown> | string }>,
  options: Omit<StreamOptions, 'hangAfter' | 'dieAfter'> & { split?: number; text?: string } = {},
): StreamResponse {
  const { split, text: before, ...rest } = options
  const chunks: Chunk[] = before ? [chunk.text(before)] : []
  for (const call of calls) chunks.push(chunk.toolCall(call.id, call.name, call.args, split))
  return stream(chunks, rest)
}

/** An HTTP error. `message` fills the format's default error body (see ErrorResponse). */
export function error(
  status: number,
  options: EntryOptions & { headers?: Record<string, string>; body?: unknown; message?: string } = {},
): ErrorResponse {
  return { type: 'error', status, ...options }
}

/** 429 with `retry-after: <seconds>`. */
export function rateLimited(retryAfterSeconds = 1, options: EntryOptions = {}): ErrorResponse {
  return error(429, { ...options, headers: { 'retry-after': String(retryAfterSeconds) }, message: 'Rate limit reached' })
}

/** Streams `afterChunks` deltas (default chunks: "partial 1 ", "partial 2 ", …), then stays open until the client aborts. */
export function hang(afterChunks = 1, options: EntryOptions & { chunks?: Chunk[]; chunkDelayMs?: number } = {}): StreamResponse {
  const { chunks = partials(afterChunks), ...rest } = options
  return stream(chunks, { ...rest, hangAfter: afterChunks })
}

/** Streams `afterChunks` deltas (default chunks as for `hang`), then destroys the socket mid-stream. */
export function die(afterChunks = 1, options: EntryOptions & { chunks?: Chunk[]; chunkDelayMs?: number } = {}): StreamResponse {
  const { chunks = partials(afterChunks), ...rest } = options
  return stream(chunks, { ...rest, dieAfter: afterChunks })
}

function partials(count: number): Chunk[] {
  return Array.from({ length: count }, (_, i) => chunk.text(`partial ${i + 1} `))
}

const PROSE =
  'The parser walks the token list once, keeping a stack of open blocks. ' +
  'Each line either extends the current block or closes it.\n\n' +
  '- lists nest by indentation\n- code fences stay verbatim\n\n'

/** Deterministic prose-and-markdown text of exactly `chars` characters. */
export function longText(chars: number): string {
  return PROSE.repeat(Math.ceil(chars / PROSE.length)).slice(0, chars)
}

/**
 * `deltas` text deltas of `deltaChars` characters each (default 4), e.g. `manyDeltas(30_000)` for streaming benchmarks.
 * The streamed text is `longText(deltas * deltaChars)`.
 */
export function manyDeltas(
  deltas: number,
  options: Omit<StreamOptions, 'hangAfter' | 'dieAfter'> & { deltaChars?: number } = {},
): StreamResponse {
  const { deltaChars = 4, ...rest } = options
  return stream([chunk.text(longText(deltas * deltaChars), deltaChars)], rest)
}
