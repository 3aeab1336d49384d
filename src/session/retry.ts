import {
  isOverflowMessage,
  OVERFLOW_WORDS,
  quotaAdvice,
  readProviderError,
  statusOfProviderError,
  type ProviderErrorDetail,
} from '../core/provider/errors'
import { isStorageFull, QUOTA_REASON, StorageFullError } from '../core/errors'
import type { MessageError } from '../core/schema'

export const RETRY_INITIAL_DELAY = 2_000
export const RETRY_BACKOFF_FACTOR = 2
export const RETRY_MAX_DELAY_NO_HEADERS = 30_000
export const RETRY_MAX_DELAY = 2_147_483_647
// The limit is a setting now (its default lives with the others); re-exported for the callers that knew it here.
export { DEFAULT_RETRY_LIMIT } from '../core/settings'

// Core's, so the banner can name the reason without importing the runtime.
export { QUOTA_REASON } from '../core/errors'

/** An HTTP error answer (the SDK's APICallError), or an error the provider sent inside a 200 stream. */
interface ProviderFailure {
  /** The SDK's own message: the provider's words for a stream error, often a summary for an HTTP one. */
  message: string
  statusCode?: number
  isRetryable?: boolean
  responseHeaders?: Record<string, string>
  /** The HTTP body, or the stream's error event as JSON. */
  responseBody?: string
  /** The code and type a stream error carries as fields. */
  detail?: ProviderErrorDetail
  /** An HTTP answer (an empty body means something); false for an error read from the stream. */
  http: boolean
}

function isAbort(error: unknown): boolean {
  return error instanceof Error ? error.name === 'AbortError' || error.name === 'TimeoutError' : false
}

/** The failure a thrown or streamed value describes, when it came from the provider; undefined otherwise. */
function providerFailure(error: unknown): ProviderFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const value = error as Record<string, unknown>
  const message = typeof value.message === 'string' ? value.message : ''
  const status = typeof value.statusCode === 'number' ? value.statusCode : undefined
  const retryable = typeof value.isRetryable === 'boolean' ? value.isRetryable : undefined
  // The SDK's StreamProviderError, or the plain shape providers give their stream errors (`createProviderStreamError`).
  if (value.name === 'AI_StreamProviderError' || (!(error instanceof Error) && ('statusCode' in value || 'isRetryable' in value))) {
    const detail: ProviderErrorDetail = {
      ...(message ? { message } : {}),
      ...(typeof value.code === 'string' ? { code: value.code } : {}),
      ...(typeof value.type === 'string' ? { type: value.type } : {}),
    }
    return {
      message,
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(retryable !== undefined ? { isRetryable: retryable } : {}),
      ...(value.data !== undefined ? { responseBody: JSON.stringify(value.data) } : {}),
      detail,
      http: false,
    }
  }
  if (value.name === 'AI_APICallError' || (status !== undefined && ('responseBody' in value || 'url' in value))) {
    return {
      message,
      ...(status !== undefined ? { statusCode: status } : {}),
      ...(retryable !== undefined ? { isRetryable: retryable } : {}),
      ...(isStringRecord(value.responseHeaders) ? { responseHeaders: value.responseHeaders } : {}),
      ...(typeof value.responseBody === 'string' ? { responseBody: value.responseBody } : {}),
      http: true,
    }
  }
  // An error frame the SDK's schema refused (an OpenAI-compatible server's `{error: {code}}` without a message).
  if (value.name === 'AI_TypeValidationError') {
    const frame = readProviderError(value.value)
    if (frame && (frame.code || frame.type)) {
      return { message: frame.message ?? '', responseBody: JSON.stringify(value.value), detail: frame, http: false }
    }
  }
  // An error event the SDK passed on as the provider's bare JSON, or an error whose message is that JSON
  // (opencode reads "other values" as a stream error).
  const json = error instanceof Error ? readProviderError(message) : readProviderError(error)
  if (!json) return undefined
  return { message: json.message ?? '', responseBody: error instanceof Error ? message : JSON.stringify(error), detail: json, http: false }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((entry) => typeof entry === 'string')
}

/** The provider's own words: the message inside a JSON body or a JSON message, else the body's text, else the SDK's. */
function providerWords(failure: ProviderFailure, detail: ProviderErrorDetail): string {
  if (detail.message && !detail.message.startsWith('{')) return detail.message
  const body = failure.responseBody?.trim()
  if (failure.http && body && !body.startsWith('{') && !body.startsWith('<') && body.length < 500) return body
  const message = failure.message.trim()
  if (message && !message.startsWith('{')) return message
  return reasonWords(detail) ?? (failure.statusCode !== undefined ? `HTTP ${failure.statusCode}` : 'Provider error')
}

/** Words for an error JSON that names only its reason (opencode's retry reasons). */
function reasonWords(detail: ProviderErrorDetail): string | undefined {
  const words = [detail.code, detail.type].filter(Boolean).join(' ').toLowerCase()
  if (/context_length_exceeded/.test(words)) return OVERFLOW_WORDS
  if (/too_many_requests/.test(words)) return 'Too Many Requests'
  if (/rate_limit/.test(words)) return 'Rate Limited'
  if (/exhausted|unavailable|overload/.test(words)) return 'Provider is overloaded'
  if (/server_error|api_error|internal/.test(words)) return 'Server error'
  return detail.code ?? detail.type
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

function classify(failure: ProviderFailure, providerID: string): MessageError {
  const detail: ProviderErrorDetail = {
    ...readProviderError(failure.responseBody),
    ...readProviderError(failure.message),
    ...failure.detail,
  }
  const message = providerWords(failure, detail)
  const statusCode = failure.statusCode ?? statusOfProviderError(detail)
  const body = failure.responseBody?.trim() ? { responseBody: failure.responseBody.slice(0, 4_000) } : {}
  const overflow =
    detail.code === 'context_length_exceeded' ||
    detail.type === 'request_too_large' ||
    statusCode === 413 ||
    // Cerebras and Mistral answer an oversized request with an empty 400.
    (failure.http && statusCode === 400 && !failure.responseBody?.trim()) ||
    isOverflowMessage(message) ||
    isOverflowMessage(failure.message)
  if (overflow) return { name: 'ContextOverflowError', data: { message, ...body } }
  const status = statusCode !== undefined ? { statusCode } : {}
  const advice = quotaAdvice({ ...detail, message })
  if (advice) return { name: 'APIError', data: { message: advice, ...status, isRetryable: false, ...body, metadata: { reason: QUOTA_REASON } } }
  if (statusCode === 401 || statusCode === 403) return { name: 'ProviderAuthError', data: { providerID, message } }
  // A stream error without a status was given one from its code, so it retries like the same HTTP answer would.
  // Unlike opencode, OpenAI's 404 is not retried: here a 404 is nearly always a model name the server does not know.
  const isRetryable = failure.isRetryable ?? (statusCode !== undefined && isRetryableStatus(statusCode))
  return {
    name: 'APIError',
    data: {
      message,
      ...status,
      isRetryable,
      ...(failure.responseHeaders ? { responseHeaders: pickRetryHeaders(failure.responseHeaders) } : {}),
      ...body,
    },
  }
}

/** Turns anything a model call can throw into one of the named message errors (opencode's `fromError`). */
export function toMessageError(error: unknown, context: { providerID: string }): MessageError {
  // Before the abort check: Dexie reports a full disk as an AbortError wrapping the QuotaExceededError.
  if (isStorageFull(error)) return { name: 'UnknownError', data: { message: new StorageFullError(errorText(error)).message } }
  if (isAbort(error)) return { name: 'MessageAbortedError', data: { message: 'The request was cancelled' } }
  if (error instanceof Error && (error.name === 'AI_LoadAPIKeyError' || error.name === 'LoadAPIKeyError')) {
    return { name: 'ProviderAuthError', data: { providerID: context.providerID, message: error.message } }
  }
  const transport = transportFailure(error)
  if (transport) return transport
  const failure = providerFailure(error)
  if (failure) return classify(failure, context.providerID)
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) {
    // The browser hides the cause of a failed fetch (CORS, DNS, refused); it is often transient.
    return { name: 'APIError', data: { message: `Network error: ${error.message}`, isRetryable: true } }
  }
  if (error instanceof Error) {
    if (isOverflowMessage(error.message)) return { name: 'ContextOverflowError', data: { message: error.message } }
    if (/ECONNRESET|socket hang up/i.test(error.message)) {
      return { name: 'APIError', data: { message: RESET_WORDS, isRetryable: true } }
    }
    return { name: 'UnknownError', data: { message: error.message } }
  }
  return { name: 'UnknownError', data: { message: typeof error === 'string' ? error : JSON.stringify(error) ?? 'Unknown error' } }
}

/** opencode's words for a connection the server reset (`ECONNRESET`). */
const RESET_WORDS = 'Connection reset by server'

/**
 * Transport codes (Node's and undici's `error.code`) that say the connection broke on the way, so the same request may
 * well go through a moment later. opencode retries `ECONNRESET` only; the others are ours. A refused connection is not
 * here (it can only happen before an answer, where the AI SDK already makes it a retryable "Cannot connect to API"),
 * nor an unknown host (waiting does not fix a name).
 */
const TRANSPORT_WORDS: Record<string, string> = {
  ECONNRESET: RESET_WORDS,
  ETIMEDOUT: 'Connection timed out',
  EPIPE: 'Connection closed while sending',
  ECONNABORTED: 'Connection aborted',
  ENETUNREACH: 'Network unreachable',
  EHOSTUNREACH: 'Host unreachable',
  EAI_AGAIN: 'Name lookup failed for now',
  UND_ERR_SOCKET: 'Connection closed by server',
  UND_ERR_CONNECT_TIMEOUT: 'Connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'Provider response headers timed out',
  UND_ERR_BODY_TIMEOUT: 'Provider response stream timed out',
}

/**
 * A broken connection named by its code on the error or down its causes (Node's fetch puts it on the cause of a "fetch
 * failed", which the AI SDK wraps again), whatever the message says: opencode's `ECONNRESET` rule, kept with the code
 * and the original message.
 */
function transportFailure(error: unknown): MessageError | undefined {
  let code: string | undefined
  const seen = new Set<unknown>()
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current)
    const found = codeOf(current)
    if (found !== undefined && found in TRANSPORT_WORDS) {
      code = found
      break
    }
  }
  if (!code) return undefined
  const original = error instanceof Error ? error.message : ''
  return {
    name: 'APIError',
    data: { message: TRANSPORT_WORDS[code] ?? RESET_WORDS, isRetryable: true, metadata: { code, ...(original ? { message: original } : {}) } },
  }
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const code = (value as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

// Only the headers retry needs are kept: others can carry request ids or cookies nobody should store.
function pickRetryHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'retry-after' || lower === 'retry-after-ms' || lower.startsWith('x-ratelimit')) kept[lower] = value
  }
  return kept
}

/**
 * Why an error is worth retrying, for the status line: the provider's own words (opencode's `retryable`), with
 * "Provider is overloaded" for an overload; undefined when it is not worth retrying (an overflow, a used-up quota,
 * a request the provider refused).
 */
export function retryReason(error: MessageError): string | undefined {
  if (error.name === 'ContextOverflowError') return undefined
  if (error.name === 'APIError') {
    const { message, statusCode, isRetryable } = error.data
    if (!isRetryable && !(statusCode !== undefined && statusCode >= 500)) return undefined
    // opencode's test is case-sensitive: Anthropic's "Overloaded" gets the summary, Google's "The model is overloaded."
    // is shown as the provider wrote it.
    return message.includes('Overloaded') ? 'Provider is overloaded' : message
  }
  if (error.name === 'UnknownError') return rateLimitWording(error.data.message)
  return undefined
}

/** opencode's three rate-limit phrasings in a plain-text error; the provider's own words are what the banner shows. */
function rateLimitWording(message: string): string | undefined {
  const lower = message.toLowerCase()
  if (['rate increased too quickly', 'rate limit', 'too many requests'].some((phrase) => lower.includes(phrase))) return message
  return undefined
}

/** How long to wait before attempt `attempt + 1` (attempt is 1-based), honouring the provider's retry headers. */
export function retryDelay(attempt: number, error: MessageError, now: number = Date.now()): number {
  const headers = error.name === 'APIError' ? error.data.responseHeaders : undefined
  const backoff = RETRY_INITIAL_DELAY * RETRY_BACKOFF_FACTOR ** Math.max(0, attempt - 1)
  if (headers) {
    const milliseconds = Number.parseFloat(headers['retry-after-ms'] ?? '')
    if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.min(Math.ceil(milliseconds), RETRY_MAX_DELAY)
    const after = headers['retry-after']
    if (after !== undefined) {
      const seconds = Number.parseFloat(after)
      if (/^\s*\d+(\.\d+)?\s*$/.test(after) && Number.isFinite(seconds)) return Math.min(Math.ceil(seconds * 1000), RETRY_MAX_DELAY)
      const date = Date.parse(after)
      if (Number.isFinite(date) && date - now > 0) return Math.min(date - now, RETRY_MAX_DELAY)
    }
    return Math.min(backoff, RETRY_MAX_DELAY)
  }
  return Math.min(backoff, RETRY_MAX_DELAY_NO_HEADERS)
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
