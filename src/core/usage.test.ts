import { describe, expect, it } from 'vitest'
import { priceFor, stepUsage, type Prices } from './usage'

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

  it.each([
    ['opencode: Anthropic on Vertex reports cache writes under `vertex`', { vertex: { cacheCreationInputTokens: 500 } }],
    ['opencode: Bedrock reports them in `bedrock.usage.cacheWriteInputTokens`', { bedrock: { usage: { cacheWriteInputTokens: 500 } } }],
    ['opencode: Venice reports them in `venice.usage.cacheCreationInputTokens`', { venice: { usage: { cacheCreationInputTokens: 500 } } }],
  ])('%s', (_rule, metadata) => {
    const { tokens } = stepUsage({ inputTokens: 2_000, outputTokens: 10 }, { input: 3, output: 15 }, metadata)
    expect(tokens).toMatchObject({ input: 1_500, cache: { write: 500 } })
  })

  it('opencode: the SDK’s own cache-write count comes before any metadata', () => {
    const { tokens } = stepUsage({ inputTokens: 2_000, inputTokenDetails: { cacheWriteTokens: 300 }, outputTokens: 10 }, { input: 3, output: 15 }, {
      anthropic: { cacheCreationInputTokens: 500 },
    })
    expect(tokens.cache.write).toBe(300)
  })

  it('difference: cache writes in raw usage the SDK leaves unread (LiteLLM passes Anthropic’s on)', () => {
    const { tokens } = stepUsage({ inputTokens: 2_000, outputTokens: 10, raw: { prompt_tokens: 2_000, cache_creation_input_tokens: 400 } }, { input: 3, output: 15 })
    expect(tokens).toMatchObject({ input: 1_600, cache: { write: 400 } })
  })
})

describe('the prices of a context tier', () => {
  const prices: Prices = {
    input: 1,
    output: 2,
    tiers: [
      { above: 500_000, input: 4, output: 8 },
      { above: 200_000, input: 2, output: 4 },
    ],
  }

  it.each([
    ['opencode: no tier is under the input, the base prices', 150_000, 1],
    ['opencode: exactly at a size is not over it', 200_000, 1],
    ['opencode: the only tier the input is over', 200_001, 2],
    ['opencode: the largest tier the input is over, whatever the order of the list', 600_000, 4],
  ])('%s', (_rule, input, price) => {
    expect(priceFor(prices, input).input).toBe(price)
  })

  it('opencode: a tier replaces the base prices whole; difference: its missing cache read price is its input price (opencode: $0)', () => {
    const tiered: Prices = { input: 3, output: 15, cacheRead: 0.3, tiers: [{ above: 200_000, input: 6, output: 22.5 }] }
    // 210,000 input of which 200,000 cache reads: the tier has no cache read price, so tabcode bills its input price.
    const { cost } = stepUsage({ inputTokens: 210_000, inputTokenDetails: { cacheReadTokens: 200_000 }, outputTokens: 0 }, tiered)
    expect(cost).toBeCloseTo((10_000 * 6 + 200_000 * 6) / 1e6, 12)
  })
})
