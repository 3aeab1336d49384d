import { describe, expect, it } from 'vitest'
import { describeMessageError } from './message-error'

describe('describeMessageError', () => {
  it('names API errors with their status and keeps the response body as detail', () => {
    expect(
      describeMessageError({
        name: 'APIError',
        data: { message: 'Rate limit reached', statusCode: 429, isRetryable: true, responseBody: '{"error":"slow down"}' },
      }),
    ).toEqual({ title: 'APIError 429', message: 'Rate limit reached', detail: '{"error":"slow down"}' })
    expect(describeMessageError({ name: 'APIError', data: { message: 'offline', isRetryable: false } })).toEqual({
      title: 'APIError',
      message: 'offline',
    })
  })

  it('gives every error a sentence, even those that carry none', () => {
    expect(describeMessageError({ name: 'MessageOutputLengthError', data: {} }).message).toMatch(/output limit/)
    expect(describeMessageError({ name: 'MessageAbortedError', data: { message: '' } }).message).toBe('Stopped before it finished.')
    expect(describeMessageError({ name: 'StructuredOutputError', data: { message: 'bad JSON', retries: 1 } }).message).toBe(
      'bad JSON (after 1 retry)',
    )
    expect(describeMessageError({ name: 'ProviderAuthError', data: { providerID: 'openai', message: 'bad key' } }).title).toBe(
      'ProviderAuthError (openai)',
    )
    expect(describeMessageError({ name: 'UnknownError', data: { message: 'huh', ref: 'r1' } }).detail).toBe('Reference: r1')
    expect(describeMessageError({ name: 'ContentFilterError', data: { message: 'filtered' } }).message).toBe('filtered')
    expect(describeMessageError({ name: 'ContextOverflowError', data: { message: 'too long' } })).toEqual({
      title: 'ContextOverflowError',
      message: 'too long',
    })
  })
})
