import type { Tokens } from '../schema'

/** Output tokens asked for per call, at most (opencode's OUTPUT_TOKEN_MAX). */
export const OUTPUT_TOKEN_MAX = 32_000
/** Room kept free for the reply when the model states a separate input limit (opencode's COMPACTION_BUFFER). */
export const COMPACTION_BUFFER = 20_000

/** A model's limits in tokens; `context` 0 means unknown. `input` is set by providers that cap input separately. */
export interface ModelLimit {
  context: number
  output: number
  input?: number
}

/** The output tokens a call may ask for: the model's output limit, capped; the cap itself when the limit is unknown. */
export function maxOutputTokens(limit: ModelLimit): number {
  return Math.min(limit.output, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX
}

/** How many tokens the history may use before it must be compacted. */
export function usableTokens(limit: ModelLimit, reserved?: number): number {
  const maxOut = maxOutputTokens(limit)
  if (limit.input) return Math.max(0, limit.input - (reserved ?? Math.min(COMPACTION_BUFFER, maxOut)))
  return Math.max(0, limit.context - maxOut)
}

/** The tokens a step used: the provider's total, or the sum of its parts when it reports none. */
export function countTokens(tokens: Tokens): number {
  return tokens.total || tokens.input + tokens.output + tokens.cache.read + tokens.cache.write
}

/**
 * Whether a step's usage says the history no longer fits: never when automatic compaction is off or the model's
 * context size is unknown (0).
 */
export function isOverflow(input: { tokens: Tokens; limit: ModelLimit; auto: boolean; reserved?: number }): boolean {
  if (!input.auto || input.limit.context === 0) return false
  return countTokens(input.tokens) >= usableTokens(input.limit, input.reserved)
}
