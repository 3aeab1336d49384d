import { describe, expect, it } from 'vitest'
import type { AssistantMessage, MessageError, UserMessage } from '../../core/schema'
import { bannerError, errorHeading } from './error-heading'

const api = (statusCode: number | undefined, message = 'nope'): MessageError => ({
  name: 'APIError',
  data: { message, isRetryable: false, ...(statusCode !== undefined ? { statusCode } : {}) },
})

describe('errorHeading', () => {
  it('names API errors by status', () => {
    expect(errorHeading(api(429)).heading).toBe('Rate limited (HTTP 429)')
    expect(errorHeading(api(503)).heading).toBe('The provider failed (HTTP 503)')
    expect(errorHeading(api(529, 'Overloaded')).heading).toBe('The provider is overloaded (HTTP 529)')
    expect(errorHeading(api(400)).heading).toBe('The provider rejected the request (HTTP 400)')
    expect(errorHeading(api(404)).heading).toBe('The provider does not know this model or endpoint (HTTP 404)')
    expect(errorHeading(api(418)).heading).toBe('The provider returned an error (HTTP 418)')
    expect(errorHeading(api(undefined, 'Network error: Failed to fetch')).heading).toBe("Couldn't reach the provider")
    expect(errorHeading(api(undefined)).heading).toBe('The provider returned an error')
    expect(errorHeading(api(429)).retry).toBe(true)
  })

  it('names a used-up quota as such, not as a rate limit, though it came as a 429', () => {
    const quota: MessageError = {
      name: 'APIError',
      data: { message: 'Quota exceeded: check your plan and billing at the provider, then try again.', statusCode: 429, isRetryable: false, metadata: { reason: 'quota' } },
    }
    expect(errorHeading(quota).heading).toBe('The account has no quota left for this model')
  })

  it('names a turn that ran out of storage, with what to do', () => {
    const full = errorHeading({ name: 'UnknownError', data: { message: "The browser's storage for tabcode is full, so the last change was not saved" } })
    expect(full).toMatchObject({ heading: 'Storage is full', advice: expect.stringMatching(/Delete or export old sessions/) })
    expect(errorHeading({ name: 'UnknownError', data: { message: 'boom' } }).heading).toBe('The turn failed')
  })

  it('says what to do when the key is refused or the conversation no longer fits', () => {
    const auth = errorHeading({ name: 'ProviderAuthError', data: { providerID: 'openai', message: 'bad key' } })
    expect(auth.heading).toBe('The provider refused the key')
    expect(auth.advice).toMatch(/Settings/)
    const overflow = errorHeading({ name: 'ContextOverflowError', data: { message: 'too long' } })
    expect(overflow.heading).toBe("The conversation is too long for this model's context window")
    expect(overflow.advice).toBe('Compact the session, branch from a recent message into a new session, or pick a model with a larger context.')
    expect(overflow.retry).toBe(false)
  })

  it('has a heading for every other name', () => {
    expect(errorHeading({ name: 'MessageOutputLengthError', data: {} }).heading).toMatch(/output limit/)
    expect(errorHeading({ name: 'ContentFilterError', data: { message: 'x' } }).heading).toMatch(/content filter/)
    expect(errorHeading({ name: 'StructuredOutputError', data: { message: 'x', retries: 1 } }).heading).toMatch(/format/)
    expect(errorHeading({ name: 'UnknownError', data: { message: 'x' } }).heading).toBe('The turn failed')
    expect(errorHeading({ name: 'MessageAbortedError', data: { message: 'x' } }).heading).toBe('Stopped')
  })
})

const user: UserMessage = {
  id: 'msg_1',
  sessionID: 'ses_1',
  role: 'user',
  time: { created: 1 },
  agent: 'build',
  model: { providerID: 'p', modelID: 'm' },
}
const assistant = (error?: MessageError): AssistantMessage => ({
  id: 'msg_2',
  sessionID: 'ses_1',
  role: 'assistant',
  time: { created: 2, completed: 3 },
  parentID: 'msg_1',
  modelID: 'm',
  providerID: 'p',
  agent: 'build',
  path: { cwd: '/', root: '/' },
  cost: 0,
  tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  ...(error ? { error } : {}),
})
const base = { live: undefined, running: false, dismissed: undefined }

describe('bannerError', () => {
  it("shows the newest assistant message's error", () => {
    expect(bannerError({ ...base, last: assistant(api(429)) })).toEqual({ error: api(429), messageID: 'msg_2' })
  })

  it('shows nothing for a clean turn, a dismissed error, or while a turn runs', () => {
    expect(bannerError({ ...base, last: assistant() })).toBeUndefined()
    expect(bannerError({ ...base, last: assistant(api(429)), dismissed: 'msg_2' })).toBeUndefined()
    expect(bannerError({ ...base, last: assistant(api(429)), running: true })).toBeUndefined()
  })

  it('never banners a stop', () => {
    const stopped: MessageError = { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }
    expect(bannerError({ ...base, last: assistant(stopped) })).toBeUndefined()
    expect(bannerError({ ...base, last: user, live: stopped })).toBeUndefined()
  })

  it('prefers the stored error over the live report of the same turn, and shows a live error on its own', () => {
    const live: MessageError = { name: 'UnknownError', data: { message: 'no model' } }
    expect(bannerError({ ...base, last: assistant(api(500)), live })).toEqual({ error: api(500), messageID: 'msg_2' })
    expect(bannerError({ ...base, last: user, live })).toEqual({ error: live })
    expect(bannerError({ ...base, last: undefined, live })).toEqual({ error: live })
    expect(bannerError({ ...base, last: assistant(api(500)), dismissed: 'msg_2', live })).toEqual({ error: live })
  })
})
