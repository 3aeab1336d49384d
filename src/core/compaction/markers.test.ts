import { describe, expect, it } from 'vitest'
import { pendingMarker } from './markers'
import { historyBuilder } from '../../testing/test-history'

describe('the marker the loop must answer first', () => {
  it('is the newest user message when it is a marker without a summary', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const marker = h.marker()
    expect(pendingMarker(h.history)).toBe(marker)
    h.summary('s1')
    expect(pendingMarker(h.history)).toBeUndefined()
  })

  it('is none when a prompt came after the marker', () => {
    const h = historyBuilder()
    h.user('u1')
    h.marker()
    h.user('u2')
    expect(pendingMarker(h.history)).toBeUndefined()
  })

  it('is the marker again when the user retries a summary that failed, but never after the summariser overflowed', () => {
    const h = historyBuilder()
    h.user('u1')
    const marker = h.marker()
    h.summary('', { error: { name: 'APIError', data: { message: 'busy', isRetryable: true } }, finish: 'error' })
    expect(pendingMarker(h.history)).toBeUndefined()
    expect(pendingMarker(h.history, { resume: true })).toBe(marker)
    h.marker()
    h.summary('', { error: { name: 'ContextOverflowError', data: { message: 'too big' } }, finish: 'error' })
    expect(pendingMarker(h.history, { resume: true })).toBeUndefined()
  })
})
