import { describe, expect, it } from 'vitest'
import { APIError, MessageAbortedError, MessageErrorSchema, MessageOutputLengthError, storedError } from './error'
import { z } from 'zod'

describe('stored errors', () => {
  it('gives each stored error its `{name, data}` shape, its class and its guard from one definition', () => {
    const ShelfError = storedError('ShelfError', z.object({ message: z.string(), shelf: z.string() }))
    expect(ShelfError.Schema.parse({ name: 'ShelfError', data: { message: 'full', shelf: 'top' } })).toEqual({ name: 'ShelfError', data: { message: 'full', shelf: 'top' } })
    expect(ShelfError.Schema.safeParse({ name: 'OtherError', data: { message: 'full', shelf: 'top' } }).success).toBe(false)
    const error = new ShelfError({ message: 'full', shelf: 'top' })
    expect(error).toMatchObject({ name: 'ShelfError', message: 'full', data: { shelf: 'top' } })
    expect(ShelfError.isInstance({ name: 'ShelfError', data: { message: 'full', shelf: 'top' } })).toBe(true)
  })

  it('reads opencode-shaped message errors as they are', () => {
    const values = [
      { name: 'ProviderAuthError', data: { providerID: 'openai', message: 'bad key' } },
      { name: 'UnknownError', data: { message: 'boom', ref: 'r1' } },
      { name: 'MessageOutputLengthError', data: { anything: 1 } },
      { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } },
      { name: 'StructuredOutputError', data: { message: 'no', retries: 2 } },
      { name: 'ContextOverflowError', data: { message: 'too long', responseBody: '{}' } },
      { name: 'ContentFilterError', data: { message: 'filtered' } },
      { name: 'APIError', data: { message: 'slow down', statusCode: 429, isRetryable: true, responseHeaders: { a: 'b' }, metadata: { reason: 'quota' } } },
    ]
    for (const value of values) expect(MessageErrorSchema.parse(value)).toEqual(value)
    expect(MessageErrorSchema.safeParse({ name: 'APIError', data: { message: 'no retry flag' } }).success).toBe(false)
    expect(MessageErrorSchema.safeParse({ name: 'OopsError', data: {} }).success).toBe(false)
    expect(MessageOutputLengthError.Schema.parse({ name: 'MessageOutputLengthError', data: { kept: true } })).toEqual({ name: 'MessageOutputLengthError', data: { kept: true } })
    expect(MessageAbortedError.isInstance({ name: 'MessageAbortedError', data: { message: 'x' } })).toBe(true)
    expect(APIError.errorName).toBe('APIError')
  })
})
