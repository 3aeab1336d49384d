import { isStorageFull, StorageFullError } from './errors'
import type { MessageError } from './schema'

export const RETRY_INITIAL_DELAY = 2_000
export const RETRY_BACKOFF_FACTOR = 2
export const RETRY_MAX_DELAY_NO_HEADERS = 30_000
export const RETRY_MAX_DELAY = 2_147_483_647
/** Unlike opencode, which retries for as long as the error stays retryable, a turn gives up after this many. */
export const DEFAULT_RETRY_LIMIT = 8

// Messages providers use when a request is bigger than the model's context window.
const OVERFLOW_PATTERNS = [
  /prompt is too long/i,
  /exceeds? the context window/i,
  /maximum context length is \d+ tokens/i,
  /context[_ ]length[_ ]exceeded/i,
  /request entity too large/i,
  /model_context_window_exceeded/i,
  /context window (?:is |was )?exceeded/i,
  /input is too long/i,
  /too many tokens/i,
  /reduce the length of the messages/i,
  /exceeds the maximum (?:number of )?tokens/i,
  /input token count.*exceeds/i,
  /prompt (?:has|contains) \d+ tokens.*(?:limit|maximum)/i,
  /context size has been exceeded/i,
  /requested \d+ tokens.*context/i,
  /string too long/i,
]

interface ApiCallLike {
  name: string
  message: string
  statusCode?: number
  isRetryable?: boolean
  responseHeaders?: Record<string, string>
  responseBody?: string
  url?: string
}

function isApiCallError(error: unknown): error is ApiCallLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: string }).name === 'AI_APICallError' || 'statusCode' in error) &&
    typeof (error as { message?: unknown }).message === 'string'
  )
}

function isAbort(error: unknown): boolean {
  return error instanceof Error ? error.name === 'AbortError' || error.name === 'TimeoutError' : false
}

/** The provider's own words, preferring the message inside a JSON error body over the SDK's summary. */
function providerMessage(error: ApiCallLike): string {
  const body = error.responseBody
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown }
      const inner = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message ?? parsed.message
      if (typeof inner === 'string' && inner.trim()) return inner.trim()
    } catch {
      // A plain-text body is the message itself.
      if (body.trim().length > 0 && body.length < 500) return body.trim()
    }
  }
  return error.message
}

function isOverflow(message: string, error?: ApiCallLike): boolean {
  if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(message))) return true
  // A bare 413 means the request was too big; nothing else makes a chat request that large.
  return error?.statusCode === 413 && !error.responseBody
}

/** Turns anything a model call can throw into one of the named message errors (opencode's `fromError`). */
export function toMessageError(error: unknown, context: { providerID: string }): MessageError {
  // Before the abort check: Dexie reports a full disk as an AbortError wrapping the QuotaExceededError.
  if (isStorageFull(error)) return { name: 'UnknownError', data: { message: new StorageFullError(errorText(error)).message } }
  if (isAbort(error)) return { name: 'MessageAbortedError', data: { message: 'The request was cancelled' } }
  if (error instanceof Error && (error.name === 'AI_LoadAPIKeyError' || error.name === 'LoadAPIKeyError')) {
    return { name: 'ProviderAuthError', data: { providerID: context.providerID, message: error.message } }
  }
  if (isApiCallError(error)) {
    const message = providerMessage(error)
    if (isOverflow(message, error)) {
      return {
        name: 'ContextOverflowError',
        data: { message, ...(error.responseBody ? { responseBody: error.responseBody } : {}) },
      }
    }
    if (error.statusCode === 401 || error.statusCode === 403) {
      return { name: 'ProviderAuthError', data: { providerID: context.providerID, message } }
    }
    return {
      name: 'APIError',
      data: {
        message,
        ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
        isRetryable: error.isRetryable ?? (error.statusCode !== undefined && (error.statusCode >= 500 || error.statusCode === 429)),
        ...(error.responseHeaders ? { responseHeaders: pickRetryHeaders(error.responseHeaders) } : {}),
        ...(error.responseBody ? { responseBody: error.responseBody.slice(0, 4_000) } : {}),
      },
    }
  }
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) {
    // The browser hides the cause of a failed fetch (CORS, DNS, refused); it is often transient.
    return { name: 'APIError', data: { message: `Network error: ${error.message}`, isRetryable: true } }
  }
  if (error instanceof Error) {
    if (isOverflow(error.message)) return { name: 'ContextOverflowError', data: { message: error.message } }
    if (/ECONNRESET|socket hang up/i.test(error.message)) {
      return { name: 'APIError', data: { message: 'Connection reset by server', isRetryable: true } }
    }
    return { name: 'UnknownError', data: { message: error.message } }
  }
  return { name: 'UnknownError', data: { message: typeof error === 'string' ? error : JSON.stringify(error) ?? 'Unknown error' } }
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

/** Why an error is worth retrying, in words for the status line; undefined when it is not. */
export function retryReason(error: MessageError): string | undefined {
  if (error.name === 'ContextOverflowError') return undefined
  if (error.name === 'APIError') {
    const { message, statusCode, isRetryable } = error.data
    if (/overloaded/i.test(message)) return 'Provider is overloaded'
    if (statusCode === 429) return 'Rate limited'
    if (isRetryable || (statusCode !== undefined && statusCode >= 500)) return message
    return rateLimitWording(message)
  }
  if (error.name === 'UnknownError') return rateLimitWording(error.data.message)
  return undefined
}

function rateLimitWording(message: string): string | undefined {
  if (/rate increased too quickly|rate.?limit|too many requests/i.test(message)) return 'Rate limited'
  if (/exhausted|unavailable/i.test(message)) return 'Provider is overloaded'
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
