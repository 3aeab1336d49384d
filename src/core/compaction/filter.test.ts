import { describe, expect, it } from 'vitest'
import { filterCompacted } from './filter'
import { historyBuilder } from '../../testing/test-history'

describe('the history the next request is built from', () => {
  it('is the whole history when nothing was compacted', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    expect(filterCompacted(h.history)).toEqual({ messages: h.history })
  })

  it('starts at the marker and its summary when the compaction kept no tail', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const marker = h.marker()
    const summary = h.summary('s1')
    const next = h.user('u2')
    const reply = h.assistant('a2')
    const filtered = filterCompacted(h.history)
    expect(filtered.messages).toEqual([marker, summary, next, reply])
    expect(filtered.summaryMessageID).toBe(summary.info.id)
  })

  it('puts the kept tail between the summary and what came after it', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const kept = h.user('u2')
    const keptReply = h.assistant('a2')
    const marker = h.marker({ tail_start_id: kept.info.id })
    const summary = h.summary('s1')
    const resume = h.resume()
    const filtered = filterCompacted(h.history)
    expect(filtered.messages.map(h.textOf)).toEqual(['[marker]', 's1', 'u2', 'a2', 'continue'])
    expect(filtered.messages).toEqual([marker, summary, kept, keptReply, resume])
  })

  it('sends the full history again once the compaction is undone, without its marker, summary or "continue"', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.marker({ undone: 5 })
    h.summary('s1')
    h.resume()
    h.assistant('a2')
    h.user('u3')
    const filtered = filterCompacted(h.history)
    expect(filtered.messages.map(h.textOf)).toEqual(['u1', 'a1', 'a2', 'u3'])
    expect(filtered.summaryMessageID).toBeUndefined()
  })

  it('follows the newest of two compactions, leaving the older marker and summary out of its tail', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const u2 = h.user('u2')
    h.assistant('a2')
    h.marker({ tail_start_id: u2.info.id })
    h.summary('s1')
    h.user('u3')
    h.assistant('a3')
    h.marker({ tail_start_id: u2.info.id })
    h.summary('s2')
    h.user('u4')
    expect(filterCompacted(h.history).messages.map(h.textOf)).toEqual(['[marker]', 's2', 'u2', 'a2', 'u3', 'a3', 'u4'])
  })

  it('goes back to the previous compaction when the newer one is undone', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.marker()
    h.summary('s1')
    h.user('u2')
    h.assistant('a2')
    h.marker({ undone: 9 })
    h.summary('s2')
    h.user('u3')
    expect(filterCompacted(h.history).messages.map(h.textOf)).toEqual(['[marker]', 's1', 'u2', 'a2', 'u3'])
  })

  it('never sends a compaction that failed as a stray question', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.marker()
    h.summary('', { error: { name: 'ContextOverflowError', data: { message: 'too big' } }, finish: 'error' })
    h.user('u2')
    expect(filterCompacted(h.history).messages.map(h.textOf)).toEqual(['u1', 'a1', 'u2'])
  })

  it('does not send the prompt an overflow compaction replayed twice', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    const u2 = h.user('u2')
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    h.marker({ overflow: true, tail_start_id: h.history[0]!.info.id })
    h.summary('s1')
    h.user('u2')
    const filtered = filterCompacted(h.history)
    // The kept tail ends before the prompt that overflowed; its replay comes after the summary.
    expect(filtered.messages.map(h.textOf)).toEqual(['[marker]', 's1', 'u1', 'a1', 'u2'])
    expect(filtered.messages.some((entry) => entry.info.id === u2.info.id)).toBe(false)
  })

  it('sends the prompt an undone overflow compaction replayed once, where it was first asked', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.user('u2')
    h.assistant('', { error: { name: 'ContextOverflowError', data: { message: 'too long' } }, finish: 'error' })
    h.marker({ overflow: true, undone: 3 })
    h.summary('s1')
    h.user('u2', (info) => [h.part(info, { type: 'text', text: '', metadata: { compaction_replay: 'msg_original' } })])
    h.assistant('a2')
    expect(filterCompacted(h.history).messages.map(h.textOf)).toEqual(['u1', 'a1', 'u2', '', 'a2'])
  })
})

