import type { Tokens } from './schema'

/** Prices in US dollars per million tokens. */
export interface Prices {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
}

/** The usage fields the AI SDK reports at the end of a step (`LanguageModelUsage`), as far as we need them. */
export interface StepUsage {
  inputTokens: number | undefined
  inputTokenDetails?: { noCacheTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number }
  outputTokens: number | undefined
  outputTokenDetails?: { textTokens?: number; reasoningTokens?: number }
  totalTokens?: number | undefined
}

const safe = (value: number | undefined): number => (value !== undefined && Number.isFinite(value) && value > 0 ? value : 0)

// Prices have at most six decimals ($0.075 per million); as integers of millionths the sum below is exact in
// doubles (tokens × micro-dollars stays far under 2^53), and the one division at the end rounds once.
const toMicros = (price: number | undefined) => Math.round(safe(price) * 1_000_000)

/**
 * Tokens and cost of one step, as opencode counts them: input excludes cache reads and writes (the SDK's input
 * includes them), output excludes reasoning, and reasoning is billed at the output price.
 */
export function stepUsage(usage: StepUsage, prices: Prices, metadata?: Record<string, unknown>): { tokens: Tokens; cost: number } {
  const cacheRead = safe(usage.inputTokenDetails?.cacheReadTokens)
  const cacheWrite = safe(usage.inputTokenDetails?.cacheWriteTokens ?? anthropicCacheWrite(metadata))
  const reasoning = safe(usage.outputTokenDetails?.reasoningTokens)
  const tokens: Tokens = {
    input: Math.max(0, safe(usage.inputTokens) - cacheRead - cacheWrite),
    output: Math.max(0, safe(usage.outputTokens) - reasoning),
    reasoning,
    cache: { read: cacheRead, write: cacheWrite },
    ...(usage.totalTokens !== undefined ? { total: safe(usage.totalTokens) } : {}),
  }
  const numerator =
    tokens.input * toMicros(prices.input) +
    tokens.output * toMicros(prices.output) +
    tokens.cache.read * toMicros(prices.cacheRead ?? prices.input) +
    tokens.cache.write * toMicros(prices.cacheWrite ?? prices.input) +
    tokens.reasoning * toMicros(prices.output)
  return { tokens, cost: numerator / 1e12 }
}

function anthropicCacheWrite(metadata: Record<string, unknown> | undefined): number | undefined {
  const anthropic = metadata?.anthropic as { cacheCreationInputTokens?: unknown } | undefined
  return typeof anthropic?.cacheCreationInputTokens === 'number' ? anthropic.cacheCreationInputTokens : undefined
}
