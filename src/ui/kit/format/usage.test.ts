import { describe, expect, it } from 'vitest'
import { describeTokens, formatCost, formatPricePerMillion, formatTokenCount, tokenSegments } from './usage'

describe('formatCost', () => {
  it('keeps four decimals below ten dollars and two above', () => {
    expect(formatCost(0.0012)).toBe('$0.0012')
    expect(formatCost(1.23456)).toBe('$1.2346')
    expect(formatCost(12.345)).toBe('$12.35')
  })

  it('says zero as zero and tiny as tiny, never a misleading $0.0000 for a real cost', () => {
    expect(formatCost(0)).toBe('$0.0000')
    expect(formatCost(0.00001)).toBe('<$0.0001')
    expect(formatCost(Number.NaN)).toBe('$0.0000')
    expect(formatCost(-1)).toBe('$0.0000')
  })
})

describe('formatTokenCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [9_999, '10k'],
    [12_345, '12k'],
    [999_499, '999k'],
    [1_234_567, '1.2M'],
    [25_000_000, '25M'],
  ])('%d → %s', (count, text) => {
    expect(formatTokenCount(count)).toBe(text)
  })
})

describe('tokenSegments', () => {
  it('always shows input and output, and reasoning and cache only when used', () => {
    const plain = { input: 1200, output: 30, reasoning: 0, cache: { read: 0, write: 0 } }
    expect(tokenSegments(plain).map((segment) => `${segment.value} ${segment.label}`)).toEqual(['1.2k in', '30 out'])
    const full = { input: 10, output: 20, reasoning: 5, cache: { read: 40_000, write: 7 } }
    expect(tokenSegments(full).map((segment) => `${segment.value} ${segment.label}`)).toEqual([
      '10 in',
      '20 out',
      '5 reasoning',
      '40k cache read',
      '7 cache write',
    ])
    expect(tokenSegments(full)[3]?.exact).toBe(40_000)
  })
})

describe('describeTokens', () => {
  it('spells every count out exactly', () => {
    expect(describeTokens({ input: 1234, output: 5, reasoning: 0, cache: { read: 10, write: 0 } })).toBe(
      '1,234 input, 5 output, 0 reasoning, 10 cache read, 0 cache write tokens',
    )
  })
})

describe('formatPricePerMillion', () => {
  it('writes input and output prices per million tokens without a float tail', () => {
    expect(formatPricePerMillion({ input: 3, output: 15 })).toBe('$3 / $15 per M')
    expect(formatPricePerMillion({ input: 0.075, output: 0.3 })).toBe('$0.075 / $0.3 per M')
    expect(formatPricePerMillion({ input: 0.1 + 0.2, output: 1.25 })).toBe('$0.3 / $1.25 per M')
    expect(formatPricePerMillion({ input: 0, output: 0.6 })).toBe('$0 / $0.6 per M')
  })

  it('says nothing of a model without a price', () => {
    expect(formatPricePerMillion({ input: 0, output: 0 })).toBeUndefined()
    expect(formatPricePerMillion(undefined)).toBeUndefined()
  })
})
