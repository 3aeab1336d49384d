import { describe, expect, it } from 'vitest'
import { StorageFullError } from '../core/errors'
import type { MessageError } from '../core/schema'
import { retryDelay, retryReason, toMessageError } from './retry'

const apiError = (statusCode: number, body?: unknown, headers?: Record<string, string>) =>
  Object.assign(new Error(`HTTP ${statusCode}`), {
    name: 'AI_APICallError',
    statusCode,
    isRetryable: statusCode === 429 || statusCode >= 500,
    responseHeaders: headers,
    responseBody: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })

const api = (headers?: Record<string, string>): MessageError => ({
  name: 'APIError',
  data: { message: 'x', statusCode: 429, isRetryable: true, ...(headers ? { responseHeaders: headers } : {}) },
})

describe('classifying errors', () => {
  it('names an abort, an auth failure and a missing key', () => {
    expect(toMessageError(new DOMException('stop', 'AbortError'), { providerID: 'p' }).name).toBe('MessageAbortedError')
    expect(toMessageError(apiError(401, { error: { message: 'Incorrect API key' } }), { providerID: 'p' })).toEqual({
      name: 'ProviderAuthError',
      data: { providerID: 'p', message: 'Incorrect API key' },
    })
    const missing = Object.assign(new Error('API key is missing'), { name: 'AI_LoadAPIKeyError' })
    expect(toMessageError(missing, { providerID: 'p' }).name).toBe('ProviderAuthError')
  })

  it('names a full disk by its storage-full words, not as a cancel, though Dexie reports it as an AbortError', () => {
    const refused = Object.assign(new Error('QuotaExceededError'), { name: 'AbortError', inner: new DOMException('full', 'QuotaExceededError') })
    const named = toMessageError(refused, { providerID: 'p' })
    expect(named).toEqual({ name: 'UnknownError', data: { message: new StorageFullError('').message } })
    expect(retryReason(named)).toBeUndefined()
  })

  it('recognises context overflow from the providers’ own wording and never retries it', () => {
    const cases = [
      apiError(400, { error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000" } }),
      apiError(400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }),
      apiError(400, { error: { code: 'context_length_exceeded', message: 'context_length_exceeded' } }),
      apiError(413),
    ]
    for (const error of cases) {
      const named = toMessageError(error, { providerID: 'p' })
      expect(named.name).toBe('ContextOverflowError')
      expect(retryReason(named)).toBeUndefined()
    }
  })

  it('keeps status, the provider message and only the retry headers of an API error', () => {
    const named = toMessageError(apiError(429, { error: { message: 'Slow down' } }, { 'Retry-After': '3', 'set-cookie': 'secret' }), {
      providerID: 'p',
    })
    expect(named).toMatchObject({ name: 'APIError', data: { statusCode: 429, message: 'Slow down', isRetryable: true, responseHeaders: { 'retry-after': '3' } } })
    expect(JSON.stringify(named)).not.toContain('secret')
  })

  it('retries 5xx, retryable errors and rate-limit wording; not a plain 400', () => {
    expect(retryReason(toMessageError(apiError(500, 'boom'), { providerID: 'p' }))).toBeDefined()
    expect(retryReason(toMessageError(apiError(503, { error: { message: 'Overloaded' } }), { providerID: 'p' }))).toBe('Provider is overloaded')
    expect(retryReason(toMessageError(apiError(400, { error: { message: 'bad request' } }), { providerID: 'p' }))).toBeUndefined()
    expect(retryReason({ name: 'UnknownError', data: { message: 'Rate limit exceeded, try later' } })).toBe('Rate limit exceeded, try later')
    expect(retryReason({ name: 'MessageAbortedError', data: { message: 'x' } })).toBeUndefined()
  })
})

describe('errors as bare JSON (a frame the SDK passed on, or a message that is JSON)', () => {
  it('reads context_length_exceeded as the code only as an overflow', () => {
    expect(toMessageError({ type: 'error', error: { code: 'context_length_exceeded' } }, { providerID: 'p' }).name).toBe('ContextOverflowError')
  })

  it('reads the reason out of a JSON message and shows it in the retry banner', () => {
    const tooMany = toMessageError(new Error(JSON.stringify({ error: { type: 'too_many_requests' } })), { providerID: 'p' })
    expect(retryReason(tooMany)).toBe('Too Many Requests')
    const limited = toMessageError(new Error(JSON.stringify({ type: 'error', error: { code: 'rate_limit_exceeded' } })), { providerID: 'p' })
    expect(retryReason(limited)).toBe('Rate Limited')
    const words = toMessageError(
      new Error(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } })),
      { providerID: 'p' },
    )
    expect(retryReason(words)).toBe('Number of requests has exceeded your rate limit')
    const exhausted = toMessageError(new Error(JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })), { providerID: 'p' })
    expect(retryReason(exhausted)).toBe('Provider is overloaded')
  })

  it('never retries a used-up quota, and says what to do', () => {
    for (const code of ['insufficient_quota', 'usage_not_included']) {
      const named = toMessageError({ type: 'error', error: { code } }, { providerID: 'p' })
      expect(named).toMatchObject({ name: 'APIError', data: { isRetryable: false, message: expect.stringMatching(/check your plan and billing at the provider/) } })
      expect(retryReason(named)).toBeUndefined()
    }
  })

  it('does not take a rate limit that mentions tokens for an overflow', () => {
    const named = toMessageError(apiError(429, { error: { message: 'Rate limit: too many tokens per minute', code: 'rate_limit_exceeded' } }), { providerID: 'p' })
    expect(named.name).toBe('APIError')
    expect(retryReason(named)).toBe('Rate limit: too many tokens per minute')
  })
})

describe('retry delays', () => {
  it('uses retry-after-ms first', () => {
    expect(retryDelay(1, api({ 'retry-after-ms': '1500.2', 'retry-after': '9' }))).toBe(1501)
  })
  it('uses retry-after in seconds', () => {
    expect(retryDelay(1, api({ 'retry-after': '3' }))).toBe(3000)
    expect(retryDelay(4, api({ 'retry-after': '0.5' }))).toBe(500)
  })
  it('uses retry-after as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0)
    expect(retryDelay(1, api({ 'retry-after': new Date(now + 7_000).toUTCString() }), now)).toBe(7_000)
  })
  it('doubles from 2 s without headers, capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(attempt, api()))).toEqual([2000, 4000, 8000, 16000, 30000, 30000])
  })
  it('doubles without the 30 s cap when headers exist but say nothing usable', () => {
    expect(retryDelay(6, api({ 'x-ratelimit-remaining': '0' }))).toBe(64_000)
    expect(retryDelay(2, api({ 'retry-after': 'whenever' }))).toBe(4_000)
  })
})
