import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatLogLine, log, redactStrings, setLogSecrets } from './log'

const KEY = 'sk-planted-0123456789abcdef'

afterEach(() => {
  setLogSecrets([])
  vi.restoreAllMocks()
})

/** An error shaped like the AI SDK's APICallError for a 401 whose body echoes the key. */
function apiCallError(key: string) {
  return Object.assign(new Error(`Incorrect API key provided: ${key}`), {
    name: 'AI_APICallError',
    url: `https://api.example.com/v1/chat/completions?key=${key}`,
    statusCode: 401,
    requestBodyValues: { model: 'mock-model', messages: [{ role: 'user', content: 'hi' }] },
    responseHeaders: { 'x-request-id': 'abc' },
    responseBody: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }),
  })
}

describe('log', () => {
  it('writes one line with the error and its cause, and never the key, the headers or a URL carrying it', () => {
    setLogSecrets(['plain-stored-secret-42'])
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const cause = new Error('request to https://host/v1?api_key=plain-stored-secret-42 failed')
    log.warn('tabcode: could not name the session', Object.assign(apiCallError(KEY), { cause }), {
      headers: { authorization: `Bearer ${KEY}` },
      note: 'with plain-stored-secret-42 inside',
    })
    expect(warn).toHaveBeenCalledTimes(1)
    const line = String(warn.mock.calls[0]![0])
    expect(line).toContain('tabcode: could not name the session')
    expect(line).toContain('AI_APICallError: Incorrect API key provided: [redacted')
    expect(line).toContain('status: 401')
    expect(line).toContain('caused by: Error: request to')
    expect(line).not.toContain(KEY)
    expect(line).not.toContain('plain-stored-secret-42')
    expect(line).not.toMatch(/authorization|Bearer/i)
  })

  it('redacts a stored key that looks like nothing in particular', () => {
    setLogSecrets(['hunter2hunter2'])
    expect(formatLogLine('failed with hunter2hunter2', [])).toBe('failed with [redacted]')
  })

  it('survives a value that refers to itself', () => {
    const loop: Record<string, unknown> = { name: 'loop' }
    loop.self = loop
    expect(formatLogLine('odd', [loop])).toContain('[circular]')
  })

  it('cleans every string of a serialized error, keys included', () => {
    setLogSecrets([KEY])
    const clean = redactStrings({ name: 'APIError', message: `bad key ${KEY}`, data: { [KEY]: [`Bearer ${KEY}`] } })
    expect(JSON.stringify(clean)).not.toContain(KEY)
    expect(clean.name).toBe('APIError')
  })
})
