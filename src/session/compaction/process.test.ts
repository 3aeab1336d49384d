import { describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../../store/message-store'
import { CompactionMarkerError } from '../../core/errors'
import { processCompaction, summariserMessages, summaryInput } from './process'
import { estimateTokens } from '../../core/compaction/tail'
import { historyBuilder } from '../../testing/test-history'

const options = { budget: 0, estimate: (messages: MessageWithParts[]) => messages.length }

describe('what the summariser is given', () => {
  it('summarises everything before the marker when it has no prompt to replay', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const marker = h.marker()
    const input = summaryInput(h.history, marker.info.id, options)
    expect(input.replay).toBeUndefined()
    expect(input.previousSummary).toBeUndefined()
    expect(input.selection.head.map(h.textOf)).toEqual(['u1', 'a1'])
  })

  it('sets aside the prompt that overflowed, and what followed it, for replay', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const overflowed = h.user('u2')
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    const marker = h.marker({ overflow: true })
    const input = summaryInput(h.history, marker.info.id, options)
    expect(input.replay).toBe(overflowed)
    expect(input.selection.head.map(h.textOf)).toEqual(['u1', 'a1'])
  })

  it('replays nothing when no real prompt would be left to summarise', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    const marker = h.marker({ overflow: true })
    const input = summaryInput(h.history, marker.info.id, options)
    expect(input.replay).toBeUndefined()
    expect(input.selection.head.map(h.textOf)).toEqual(['u1', ''])
  })

  it('updates the previous summary with what came after it, hiding the earlier compaction', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const kept = h.user('u2')
    h.assistant('a2')
    h.marker({ tail_start_id: kept.info.id })
    h.summary('first summary')
    h.resume()
    h.assistant('a3')
    const marker = h.marker()
    const input = summaryInput(h.history, marker.info.id, options)
    expect(input.previousSummary).toBe('first summary')
    // The old tail and what followed the summary; never the history the first summary replaced.
    expect(input.selection.head.map(h.textOf)).toEqual(['u2', 'a2', 'continue', 'a3'])
  })

  it('keeps recent turns out of the summary when they fit the budget', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const recent = h.user('u2')
    h.assistant('a2')
    const marker = h.marker()
    const input = summaryInput(h.history, marker.info.id, { ...options, budget: 2 })
    expect(input.selection.tailStartID).toBe(recent.info.id)
    expect(input.selection.head.map(h.textOf)).toEqual(['u1', 'a1'])
  })
})

describe('answering a compaction marker', () => {
  it('refuses a marker that is not on a prompt with a named error, before anything is resolved or written', async () => {
    const h = historyBuilder()
    h.user('u1')
    const reply = h.assistant('a1')
    const dependencies = {
      store: {} as never,
      resolve: () => Promise.reject(new Error('resolved a model for a marker on a reply')),
      agent: () => Promise.reject(new Error('read an agent for a marker on a reply')),
      stream: () => Promise.reject(new Error('streamed a summary for a marker on a reply')),
    }
    const attempt = processCompaction(dependencies, { session: {} as never, history: h.history, marker: reply })
    await expect(attempt).rejects.toBeInstanceOf(CompactionMarkerError)
    await expect(attempt).rejects.toMatchObject({ name: 'CompactionMarkerError', data: { messageID: reply.info.id, role: 'assistant' } })
  })
})

describe('the summariser\'s own request', () => {
  // 8,000 tokens usable: about 32,000 characters.
  const summarizer = { providerID: 'mock', modelID: 'small-context', limit: { context: 10_000, output: 2_000 } }
  function longTurns() {
    const h = historyBuilder()
    h.user(`u1 ${'a'.repeat(16_000)}`)
    h.assistant('a1')
    h.user(`u2 ${'b'.repeat(16_000)}`)
    h.assistant('a2')
    return h
  }

  it('is the whole head and the compaction prompt when it fits', () => {
    const h = longTurns()
    const messages = summariserMessages(h.history.slice(2), { summarizer, system: 'summarise' })
    expect(messages).toHaveLength(3)
    expect(JSON.stringify(messages)).not.toContain('left out')
  })

  it('is cut to the summariser\'s context, oldest first from a prompt, with a note and the previous summary', () => {
    const h = longTurns()
    const messages = summariserMessages(h.history, { summarizer, system: 'summarise', previousSummary: 'PREVIOUS SUMMARY' })
    expect(estimateTokens(['summarise', messages])).toBeLessThan(8_000)
    expect(messages[0]).toEqual({ role: 'user', content: expect.stringMatching(/^The 2 oldest messages of this conversation were left out here/) })
    const sent = JSON.stringify(messages.slice(1))
    expect(sent).not.toContain('u1 ')
    expect(sent).not.toContain('a1')
    expect(sent).toContain('u2 ')
    expect(sent).toContain('a2')
    expect(JSON.stringify(messages.at(-1))).toContain('PREVIOUS SUMMARY')
  })
})
