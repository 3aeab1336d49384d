import { redactSecrets, redactText } from './redact'

/**
 * The one way tabcode writes to the console. Provider errors echo what was sent (OpenAI's 401 repeats the key, an
 * SDK error carries the request's URL and headers), so every line goes through the same redaction as stored and
 * shown errors first: the stored keys verbatim, the places keys travel, and anything that looks like a key.
 */
export interface Logger {
  warn(message: string, ...details: unknown[]): void
  error(message: string, ...details: unknown[]): void
}

let secrets: readonly string[] = []

/** The exact secrets to remove wherever they appear; the worker keeps this at the stored provider keys. */
export function setLogSecrets(next: readonly string[]): void {
  secrets = next.filter((secret) => secret.length >= 4)
}

/** Text with the known secrets and anything key-like taken out. */
export function redactForLog(text: string): string {
  return redactText(redactSecrets(text, secrets), secrets).text
}

/** A copy of a JSON value with every string (keys of records too) through `redactForLog`. */
export function redactStrings<T>(value: T): T {
  if (typeof value === 'string') return redactForLog(value) as T
  if (Array.isArray(value)) return value.map((item) => redactStrings(item)) as T
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redactForLog(key), redactStrings(inner)])) as T
}

// Headers are never worth a log line: they hold the key (Authorization, x-api-key) and say nothing about the failure.
const HEADERS = /headers$|^authorization$|^x-api-key$|^x-goog-api-key$|^api-key$/i
// An SDK error's request body is the whole prompt: long, private, and no help in a console.
const BULKY = /^requestBodyValues$/

function plain(value: unknown, seen: WeakSet<object>): unknown {
  if (value instanceof Error) return describeError(value, seen)
  if (!value || typeof value !== 'object') return value
  if (seen.has(value)) return '[circular]'
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => plain(item, seen))
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (HEADERS.test(key) || BULKY.test(key)) continue
    out[key] = plain(inner, seen)
  }
  return out
}

function describeError(error: Error, seen: WeakSet<object>): string {
  if (seen.has(error)) return '[circular]'
  seen.add(error)
  const head = `${error.name}: ${error.message}`
  const stack = error.stack && error.stack.includes(error.message) ? error.stack : `${head}${error.stack ? `\n${error.stack}` : ''}`
  const lines = [stack]
  const data = (error as { data?: unknown }).data
  if (data && typeof data === 'object' && Object.keys(data).length) lines.push(`data: ${JSON.stringify(plain(data, seen))}`)
  const status = (error as { statusCode?: unknown }).statusCode
  if (typeof status === 'number') lines.push(`status: ${status}`)
  const cause = (error as { cause?: unknown }).cause
  if (cause !== undefined) lines.push(`caused by: ${describe(cause, seen)}`)
  return lines.join('\n')
}

function describe(value: unknown, seen: WeakSet<object>): string {
  if (typeof value === 'string') return value
  if (value instanceof Error) return describeError(value, seen)
  const shown = plain(value, seen)
  if (typeof shown === 'string') return shown
  try {
    return JSON.stringify(shown) ?? String(shown)
  } catch {
    return String(shown)
  }
}

/** One redacted line for a message and whatever came with it (errors with their stack and cause, never headers). */
export function formatLogLine(message: string, details: readonly unknown[]): string {
  const seen = new WeakSet<object>()
  return redactForLog([message, ...details.map((detail) => describe(detail, seen))].join(' '))
}

export const log: Logger = {
  warn: (message, ...details) => console.warn(formatLogLine(message, details)),
  error: (message, ...details) => console.error(formatLogLine(message, details)),
}
