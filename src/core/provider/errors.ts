import { defineError } from '../errors'
import type { ConnectionResult } from '../protocol'

export interface ModelNotFoundData extends Record<string, unknown> {
  providerID: string
  modelID: string
  /** `providerID/modelID` of configured models that look like the one asked for. */
  suggestions: string[]
}

/** A message or setting points at a provider or model that is not (or no longer) configured. */
export const ModelNotFoundError = defineError('ModelNotFoundError', (message: string, data: ModelNotFoundData) => ({ message, data }))

/** A hosted provider (OpenAI, Anthropic, Gemini) has no key stored, so no request can succeed. */
export const MissingApiKeyError = defineError('MissingApiKeyError', (providerID: string, providerName: string) => ({
  message: `${providerName} has no API key. Add one in Settings.`,
  data: { providerID },
}))

type ConnectionFailure = Extract<ConnectionResult, { status: 'failed' }>

/** Listing a provider's models failed; carries the same cause "Test connection" would report. */
export const ConnectionError = defineError('ConnectionError', (failure: ConnectionFailure) => ({
  message: failure.message,
  data: {
    cause: failure.cause,
    ...(failure.statusCode !== undefined ? { statusCode: failure.statusCode } : {}),
  } as { cause: ConnectionFailure['cause']; statusCode?: number },
}))

/**
 * How providers say a request does not fit the model's context window: opencode's list (`isContextOverflow` in its
 * `packages/llm/src/provider-error.ts`, which its `provider/error.ts` uses), one pattern per provider wording. The
 * image counts are there because a compaction drops the media, so it helps with them too.
 */
const OVERFLOW_PATTERNS = [
  /prompt is too long/i, // Anthropic
  /request_too_large/i, // Anthropic's error type, inside a JSON message
  /input is too long for requested model/i, // Amazon Bedrock
  /exceeds the context window/i, // OpenAI (Chat Completions and Responses)
  /exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))/i, // vLLM, SGLang
  /input token count.*exceeds the maximum/i, // Google
  /tokens in request more than max tokens allowed/i, // z.ai
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenAI Chat Completions, OpenRouter, DeepSeek, vLLM
  /exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?/i, // Together, Fireworks
  /input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i, // SGLang
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi, Moonshot
  /context[_ ]length[_ ]exceeded/i, // generic
  /request entity too large/i, // HTTP 413
  /context length is only \d+ tokens/i, // vLLM
  /input length.*exceeds.*context length/i, // vLLM
  /prompt too long; exceeded (?:max )?context length/i, // Ollama
  /too large for model with \d+ maximum context length/i, // Mistral
  /prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i, // llama.cpp
  /model_context_window_exceeded/i, // z.ai
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
  /request contains \d+ images/i, // too many images: a compaction drops them
  /exceeding the maximum of \d+ .* allowed/i,
  /too many images/i,
]

/** Words that make a message a rate limit or an outage even when it also names tokens ("too many tokens per minute"). */
const NOT_OVERFLOW_PATTERNS = [/^(throttling error|service unavailable):/i, /rate limit/i, /too many requests/i]

/** Whether a provider's words say the request is bigger than the model's context window. */
export function isOverflowMessage(message: string): boolean {
  if (NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(message))) return false
  // "400 status code (no body)": Cerebras and Mistral answer an oversized request with an empty 400 or 413.
  return OVERFLOW_PATTERNS.some((pattern) => pattern.test(message)) || /^4(00|13)\s*(status code)?\s*\(no body\)/i.test(message)
}

/** opencode's words for an overflow the provider named only by its code (`context_length_exceeded`). */
export const OVERFLOW_WORDS = 'Input exceeds context window of this model'

/** The fields of a provider's error JSON that say what went wrong. */
export interface ProviderErrorDetail {
  message?: string
  /** `error.code` as a string (`context_length_exceeded`, `insufficient_quota`, `server_error`). */
  code?: string
  /** `error.type` (`overloaded_error`, `too_many_requests`), or Google's `error.status` (`RESOURCE_EXHAUSTED`). */
  type?: string
  /** An HTTP status the JSON names (Google's numeric `error.code`, a `status` or `statusCode` field). */
  status?: number
}

/**
 * Reads a provider's error JSON, from a response body, an in-stream error event or a message that is itself JSON:
 * `{error: {message, type, code}}` (OpenAI, Google), `{type: "error", error: {type, message}}` (Anthropic),
 * `{type: "error", code, message}` (Responses), `{type: "response.failed", response: {error}}`, or the fields at
 * the root. A message that is JSON (a gateway passing on its upstream's error) is read for the inner reason.
 */
export function readProviderError(input: unknown, depth = 0): ProviderErrorDetail | undefined {
  if (depth > 3) return undefined
  if (typeof input === 'string') {
    const text = input.trim()
    if (!text.startsWith('{')) return undefined
    try {
      return readProviderError(JSON.parse(text) as unknown, depth + 1)
    } catch {
      return undefined
    }
  }
  if (typeof input !== 'object' || input === null) return undefined
  const root = input as Record<string, unknown>
  const failed = record(record(root.response)?.error)
  const inner = failed ?? record(root.error) ?? (typeof root.error === 'string' ? { message: root.error } : root)
  const detail: ProviderErrorDetail = {}
  if (typeof inner.message === 'string' && inner.message.trim()) detail.message = inner.message.trim()
  const code = inner.code
  if (typeof code === 'string' && code) {
    if (/^\d{3}$/.test(code)) detail.status = Number(code)
    else detail.code = code
  }
  if (typeof code === 'number' && code >= 400 && code < 600) detail.status = code
  // The root `type: "error"` only says this is an error event; the reason is inside it.
  const type = inner === root && root.type === 'error' ? undefined : inner.type
  if (typeof type === 'string' && type) detail.type = type
  else if (typeof inner.status === 'string' && inner.status) detail.type = inner.status
  const status = [inner.status, inner.statusCode, root.status, root.statusCode].find(
    (value): value is number => typeof value === 'number' && value >= 400 && value < 600,
  )
  if (status !== undefined && detail.status === undefined) detail.status = status
  const nested = detail.message ? readProviderError(detail.message, depth + 1) : undefined
  const merged = nested ? { ...detail, ...nested } : detail
  return Object.keys(merged).length > 0 ? merged : undefined
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

/**
 * The HTTP status an error without one stands for, from its code and type (as the OpenAI SDK infers it for its own
 * stream errors), so an in-stream error is retried, or not, like the same error as an HTTP answer. Unknown: undefined.
 */
export function statusOfProviderError(detail: ProviderErrorDetail): number | undefined {
  if (detail.status !== undefined) return detail.status
  const words = [detail.code, detail.type].filter(Boolean).join(' ').toLowerCase()
  if (!words) return undefined
  if (/quota|usage_not_included|rate_limit|too_many_requests|resource_exhausted/.test(words)) return 429
  if (/authentication|invalid_api_key|unauthenticated/.test(words)) return 401
  if (/permission/.test(words)) return 403
  if (/not_found/.test(words)) return 404
  if (/request_too_large/.test(words)) return 413
  if (/context_length|invalid|bad_request/.test(words)) return 400
  if (/overload/.test(words)) return 529
  if (/unavailable/.test(words)) return 503
  if (/timeout|deadline/.test(words)) return 504
  if (/server_error|api_error|internal/.test(words)) return 500
  return undefined
}

/**
 * What to do about a quota the account has used up (opencode's `insufficient_quota` and `usage_not_included`): waiting
 * does not help, so these are never retried and the message says where to look. Undefined for other errors.
 */
export function quotaAdvice(detail: ProviderErrorDetail): string | undefined {
  const reason = detail.code ?? detail.type
  const words = detail.message ? ` (${detail.message})` : ''
  if (reason === 'insufficient_quota') return `Quota exceeded: check your plan and billing at the provider, then try again.${words}`
  // opencode's text for this one points at ChatGPT Plus (its Codex sign-in); tabcode only uses API keys.
  if (reason === 'usage_not_included') {
    return `Your plan does not include this model's usage: check your plan and billing at the provider, or choose another model.${words}`
  }
  return undefined
}

/** "Update model facts" got a file it cannot use; the facts in use stay as they were. */
export const ModelFactsError = defineError('ModelFactsError', (reason: string) => ({
  message: `The model facts were not updated: ${reason}`,
  data: { reason },
}))
