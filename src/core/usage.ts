import type { Tokens } from './schema'

/** Prices in US dollars per million tokens. */
export interface Price {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
}

/** A context tier: its prices apply to a request whose input is above `above` tokens (models.dev's `cost.tiers`). */
export interface PriceTier extends Price {
  above: number
}

/** A model's prices: the base ones, and the context tiers that replace them on longer requests. */
export interface Prices extends Price {
  tiers?: readonly PriceTier[]
}

/** The usage fields the AI SDK reports at the end of a step (`LanguageModelUsage`), as far as we need them. */
export interface StepUsage {
  inputTokens: number | undefined
  inputTokenDetails?: { noCacheTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number }
  outputTokens: number | undefined
  outputTokenDetails?: { textTokens?: number; reasoningTokens?: number }
  totalTokens?: number | undefined
  /** The provider's own usage object, as the SDK passes it on (`LanguageModelUsage.raw`). */
  raw?: unknown
}

const safe = (value: number | undefined): number => (value !== undefined && Number.isFinite(value) && value > 0 ? value : 0)

// Prices have at most six decimals ($0.075 per million); as integers of millionths the sum below is exact in
// doubles (tokens × micro-dollars stays far under 2^53), and the one division at the end rounds once.
const toMicros = (price: number | undefined) => Math.round(safe(price) * 1_000_000)

/**
 * The prices of a request with `inputTokens` of input (the SDK's count, cache reads and writes included), as
 * opencode picks them: the context tier with the largest `above` that the input is strictly over, else the base
 * prices. models.dev's older `context_over_200k` table arrives here as a tier above 200,000 (model-facts-schema.ts).
 */
export function priceFor(prices: Prices, inputTokens: number): Price {
  let chosen: Price = prices
  let size = -1
  for (const tier of prices.tiers ?? []) {
    if (inputTokens > tier.above && tier.above > size) {
      chosen = tier
      size = tier.above
    }
  }
  return chosen
}

/**
 * Tokens and cost of one step, as opencode counts them: input excludes cache reads and writes (the SDK's input
 * includes them), output excludes reasoning, reasoning is billed at the output price, and the prices are those of
 * the context tier the step's whole input falls in.
 */
export function stepUsage(usage: StepUsage, prices: Prices, metadata?: Record<string, unknown>): { tokens: Tokens; cost: number } {
  const cacheRead = safe(usage.inputTokenDetails?.cacheReadTokens)
  const cacheWrite = safe(usage.inputTokenDetails?.cacheWriteTokens ?? cacheWriteFromMetadata(metadata) ?? cacheWriteFromRaw(usage.raw))
  const reasoning = safe(usage.outputTokenDetails?.reasoningTokens)
  const tokens: Tokens = {
    input: Math.max(0, safe(usage.inputTokens) - cacheRead - cacheWrite),
    output: Math.max(0, safe(usage.outputTokens) - reasoning),
    reasoning,
    cache: { read: cacheRead, write: cacheWrite },
    ...(usage.totalTokens !== undefined ? { total: safe(usage.totalTokens) } : {}),
  }
  const price = priceFor(prices, safe(usage.inputTokens))
  // Unlike opencode (which bills an unpriced cache read or write at $0), a missing cache price is the input price:
  // a model typed in with two prices would otherwise show its cached tokens as free.
  const numerator =
    tokens.input * toMicros(price.input) +
    tokens.output * toMicros(price.output) +
    tokens.cache.read * toMicros(price.cacheRead ?? price.input) +
    tokens.cache.write * toMicros(price.cacheWrite ?? price.input) +
    tokens.reasoning * toMicros(price.output)
  return { tokens, cost: numerator / 1e12 }
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/**
 * Cache writes an SDK reports only in its provider metadata, in opencode's order: Anthropic's, Anthropic on Vertex
 * (the `vertex` key), Bedrock's and Venice's.
 */
function cacheWriteFromMetadata(metadata: Record<string, unknown> | undefined): number | undefined {
  return (
    count(record(metadata?.anthropic)?.cacheCreationInputTokens) ??
    count(record(metadata?.vertex)?.cacheCreationInputTokens) ??
    count(record(record(metadata?.bedrock)?.usage)?.cacheWriteInputTokens) ??
    count(record(record(metadata?.venice)?.usage)?.cacheCreationInputTokens)
  )
}

/**
 * Cache writes an OpenAI-compatible server reports in its usage where the SDK does not read them (opencode does not
 * look here): `prompt_tokens_details.cache_write_tokens` (OpenRouter) or `cache_creation_input_tokens` (servers that
 * pass Anthropic's usage on, such as LiteLLM).
 */
function cacheWriteFromRaw(raw: unknown): number | undefined {
  const usage = record(raw)
  return count(record(usage?.prompt_tokens_details)?.cache_write_tokens) ?? count(usage?.cache_creation_input_tokens)
}
