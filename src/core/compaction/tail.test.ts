import { describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../dto/messages'
import { estimateTokens, selectTail, tailBudget, turnStarts } from './tail'
import { historyBuilder } from '../../testing/test-history'

// One "token" per character of text, so budgets are easy to read.
const estimate = (messages: MessageWithParts[]) =>
  messages.reduce((sum, entry) => sum + entry.parts.reduce((inner, part) => inner + (part.type === 'text' ? part.text.length : 0), 0), 0)

function threeTurns() {
  const h = historyBuilder()
  h.user('u1 ........')          // 11
  h.assistant('a1 ........')     // 11
  h.user('u2 ....')              // 7
  h.assistant('a2 ....')         // 7
  h.assistant('a2b ...')         // 7
  h.user('u3 ..')                // 5
  h.assistant('a3 ..')           // 5
  return h
}

describe('choosing the recent turns kept verbatim', () => {
  it('keeps the last two whole turns when they fit, and summarises the rest', () => {
    const { history } = threeTurns()
    const selection = selectTail(history, { budget: 100, estimate })
    expect(selection.head).toEqual(history.slice(0, 2))
    expect(selection.tail).toEqual(history.slice(2))
    expect(selection.tailStartID).toBe(history[2]!.info.id)
  })

  it('splits the first turn that does not fit at the earliest message whose rest fits', () => {
    const { history } = threeTurns()
    // Turn 3 costs 10; turn 2 costs 21 and does not fit in the 15 left; its last reply (7) does, with a2 (14) too.
    const selection = selectTail(history, { budget: 25, estimate })
    expect(selection.tailStartID).toBe(history[3]!.info.id)
    expect(selection.tail.map((entry) => entry.info.id)).toEqual(history.slice(3).map((entry) => entry.info.id))
    // With less room only the last reply of turn 2 goes along.
    expect(selectTail(history, { budget: 17, estimate }).tailStartID).toBe(history[4]!.info.id)
  })

  it('keeps nothing when not even the newest turn fits in part', () => {
    const { history } = threeTurns()
    expect(selectTail(history, { budget: 4, estimate })).toEqual({ head: history, tail: [] })
  })

  it('has no tail when the tail would start at the first message', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.user('u2')
    h.assistant('a2')
    const selection = selectTail(h.history, { budget: 1_000, estimate })
    expect(selection.tail).toEqual([])
    expect(selection.tailStartID).toBeUndefined()
    expect(selection.head).toHaveLength(4)
  })

  it('takes as many turns as tail_turns says, none for zero', () => {
    const { history } = threeTurns()
    expect(selectTail(history, { budget: 1_000, estimate, turns: 1 }).tailStartID).toBe(history[5]!.info.id)
    expect(selectTail(history, { budget: 1_000, estimate, turns: 0 }).tail).toEqual([])
  })

  it('does not count a compaction marker as the start of a turn', () => {
    const h = historyBuilder()
    h.user('u1')
    h.assistant('a1')
    h.marker()
    h.summary('s1')
    h.user('u2')
    expect(turnStarts(h.history)).toEqual([0, 4])
  })

  it('budgets a quarter of the usable context, between 2,000 and 8,000, and estimates a quarter of the JSON length', () => {
    expect(tailBudget(4_000)).toBe(2_000)
    expect(tailBudget(20_000)).toBe(5_000)
    expect(tailBudget(1_000_000)).toBe(8_000)
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(100) }])).toBe(Math.round(JSON.stringify([{ role: 'user', content: 'x'.repeat(100) }]).length / 4))
  })
})
