import { describe, expect, it } from 'vitest'
import { stepUsage } from './usage'

describe('step usage and cost', () => {
  it('takes cache reads and writes out of input and reasoning out of output', () => {
    const { tokens } = stepUsage(
      {
        inputTokens: 10_000,
        inputTokenDetails: { cacheReadTokens: 6_000, cacheWriteTokens: 1_000 },
        outputTokens: 900,
        outputTokenDetails: { reasoningTokens: 400 },
        totalTokens: 10_900,
      },
      { input: 3, output: 15 },
    )
    expect(tokens).toEqual({ input: 3_000, output: 500, reasoning: 400, cache: { read: 6_000, write: 1_000 }, total: 10_900 })
  })

  it('bills every kind of token at its price, reasoning at the output price, exactly', () => {
    const { cost } = stepUsage(
      {
        inputTokens: 10_000,
        inputTokenDetails: { cacheReadTokens: 6_000, cacheWriteTokens: 1_000 },
        outputTokens: 900,
        outputTokenDetails: { reasoningTokens: 400 },
      },
      { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    )
    // 3000×3 + 500×15 + 6000×0.3 + 1000×3.75 + 400×15 = 9000 + 7500 + 1800 + 3750 + 6000 = 28,050 µ$ per token-million
    expect(cost).toBe(0.02805)
  })

  it('has no float drift on small prices', () => {
    const { cost } = stepUsage({ inputTokens: 1, outputTokens: 2 }, { input: 0.1, output: 0.2 })
    expect(cost).toBe(0.0000005)
    expect(stepUsage({ inputTokens: 3, outputTokens: 0 }, { input: 0.1, output: 0 }).cost).toBe(0.0000003)
  })

  it('treats missing or broken numbers as zero and never goes negative', () => {
    const { tokens, cost } = stepUsage(
      { inputTokens: undefined, inputTokenDetails: { cacheReadTokens: 50 }, outputTokens: Number.NaN },
      { input: 1, output: 1 },
    )
    expect(tokens).toMatchObject({ input: 0, output: 0, reasoning: 0, cache: { read: 50, write: 0 } })
    expect(cost).toBeCloseTo(0.00005, 12)
  })

  it('reads Anthropic cache writes from provider metadata when the SDK does not report them', () => {
    const { tokens } = stepUsage({ inputTokens: 2_000, outputTokens: 10 }, { input: 3, output: 15 }, {
      anthropic: { cacheCreationInputTokens: 500 },
    })
    expect(tokens.cache.write).toBe(500)
    expect(tokens.input).toBe(1_500)
  })
})
