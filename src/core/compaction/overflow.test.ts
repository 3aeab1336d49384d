import { describe, expect, it } from 'vitest'
import type { Tokens } from '../schema'
import { isOverflow, maxOutputTokens, usableTokens } from './overflow'

const tokens = (input: number, output = 0, extra: Partial<Tokens> = {}): Tokens => ({ input, output, reasoning: 0, cache: { read: 0, write: 0 }, ...extra })

describe('when the history overflows the context', () => {
  it('keeps room for the reply: the context minus the output limit (capped at 32,000)', () => {
    const limit = { context: 128_000, output: 4_000 }
    expect(usableTokens(limit)).toBe(124_000)
    expect(isOverflow({ tokens: tokens(123_999), limit, auto: true })).toBe(false)
    expect(isOverflow({ tokens: tokens(124_000), limit, auto: true })).toBe(true)
    expect(usableTokens({ context: 200_000, output: 64_000 })).toBe(168_000)
    expect(maxOutputTokens({ context: 200_000, output: 0 })).toBe(32_000)
  })

  it('uses the input limit minus a buffer when the model states one', () => {
    // The buffer is the smaller of 20,000 and the output allowance; a configured reserve replaces it.
    expect(usableTokens({ context: 400_000, output: 128_000, input: 272_000 })).toBe(252_000)
    expect(usableTokens({ context: 400_000, output: 8_000, input: 272_000 })).toBe(264_000)
    expect(usableTokens({ context: 400_000, output: 8_000, input: 272_000 }, 1_000)).toBe(271_000)
    expect(isOverflow({ tokens: tokens(252_000), limit: { context: 400_000, output: 128_000, input: 272_000 }, auto: true })).toBe(true)
    expect(usableTokens({ context: 10, output: 8_000, input: 100 })).toBe(0)
  })

  it('never overflows with automatic compaction off or an unknown context size', () => {
    expect(isOverflow({ tokens: tokens(1_000_000), limit: { context: 8_000, output: 1_000 }, auto: false })).toBe(false)
    expect(isOverflow({ tokens: tokens(1_000_000), limit: { context: 0, output: 1_000 }, auto: true })).toBe(false)
  })

  it('counts the provider total, or input, output and cache when the total is missing or 0', () => {
    const limit = { context: 10_000, output: 1_000 }
    expect(isOverflow({ tokens: tokens(10, 10, { total: 9_000 }), limit, auto: true })).toBe(true)
    expect(isOverflow({ tokens: tokens(4_000, 1_000, { total: 0, cache: { read: 3_000, write: 1_000 } }), limit, auto: true })).toBe(true)
    expect(isOverflow({ tokens: tokens(4_000, 1_000, { cache: { read: 2_000, write: 1_000 } }), limit, auto: true })).toBe(false)
  })
})
