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

  // The user's settings (Settings → Context), each row one of the rules by which opencode's session/compaction.ts
  // applies its `compaction.tail_turns` and `compaction.preserve_recent_tokens` config. With the estimate above the
  // three turns cost 22, 21 (u2 7, a2 7, a2b 7) and 10.
  it.each([
    { rule: 'tail_turns defaults to 2', turns: undefined, budget: 100, starts: 2 },
    { rule: 'tail_turns 1 keeps the newest turn only', turns: 1, budget: 100, starts: 5 },
    { rule: 'tail_turns <= 0 means no tail', turns: 0, budget: 100, starts: undefined },
    { rule: 'a tail that would start at index 0 is no tail (3 turns asked, 3 there)', turns: 3, budget: 100, starts: undefined },
    { rule: 'preserve_recent_tokens 0: not even part of the newest turn fits', turns: 2, budget: 0, starts: undefined },
    { rule: 'preserve_recent_tokens bounds whole turns: the newest fits (10), the next is split where its rest fits (14 of 21)', turns: 2, budget: 24, starts: 3 },
    { rule: 'preserve_recent_tokens exactly the newest turn: the next one gets nothing', turns: 2, budget: 10, starts: 5 },
  ])('$rule', ({ turns, budget, starts }) => {
    const { history } = threeTurns()
    const selection = selectTail(history, { budget, estimate, ...(turns !== undefined ? { turns } : {}) })
    expect(selection.tailStartID).toBe(starts === undefined ? undefined : history[starts]!.info.id)
    expect(selection.head).toEqual(history.slice(0, starts ?? history.length))
  })

  it.each([
    { rule: 'unset: a quarter of the usable context, at least 2,000', usable: 4_000, configured: undefined, budget: 2_000 },
    { rule: 'unset: a quarter of the usable context, at most 8,000', usable: 1_000_000, configured: undefined, budget: 8_000 },
    { rule: 'set: preserve_recent_tokens is taken as it is, above the 8,000 of the default', usable: 1_000_000, configured: 50_000, budget: 50_000 },
    { rule: 'set: below the 2,000 of the default', usable: 1_000_000, configured: 500, budget: 500 },
    { rule: 'set to 0: no tokens for a tail (opencode reads it with ??, so 0 is not unset)', usable: 1_000_000, configured: 0, budget: 0 },
  ])('budgets the tail: $rule', ({ usable, configured, budget }) => {
    expect(tailBudget(usable, configured)).toBe(budget)
  })
})
