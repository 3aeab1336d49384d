/*
 * The bounds and defaults of the two settings that decide what a compaction keeps verbatim (Settings → Context),
 * opencode's `compaction.tail_turns` and `compaction.preserve_recent_tokens`, and how the text a user types becomes
 * one. Free of zod so the Settings page can use it.
 */

/** opencode's `tail_turns` default: the last two turns stay verbatim after a summary. */
export const DEFAULT_TAIL_TURNS = 2
/** opencode's `preserve_recent_tokens` when unset: a quarter of the usable context, within these. */
export const TAIL_BUDGET_MIN = 2_000
export const TAIL_BUDGET_MAX = 8_000
/**
 * opencode bounds neither setting beyond "a whole number, not negative"; these caps only catch a slip of the keyboard
 * (no session keeps a thousand turns verbatim, and no model's context holds ten million tokens).
 */
export const TAIL_TURNS_MAX = 1_000
export const PRESERVE_RECENT_TOKENS_MAX = 10_000_000

export type TailSettingInput<T> = { value: T } | { error: string }

/** A whole number as typed, digit groups (`8,000`, `8 000`, `8_000`) allowed; undefined for anything else. */
function wholeNumber(text: string): number | undefined {
  const digits = text.trim().replace(/[,_\s]/g, '')
  return /^\d+$/.test(digits) ? Number(digits) : undefined
}

/** The recent turns kept verbatim, from the field's text. */
export function readTailTurns(text: string): TailSettingInput<number> {
  const value = wholeNumber(text)
  if (value === undefined || value > TAIL_TURNS_MAX) return { error: `Recent turns kept must be a whole number from 0 to ${TAIL_TURNS_MAX.toLocaleString('en-US')}.` }
  return { value }
}

/** The token budget of those turns, from the field's text: empty (or "auto") is the automatic budget. */
export function readPreserveRecentTokens(text: string): TailSettingInput<number | 'auto'> {
  if (text.trim() === '' || text.trim().toLowerCase() === 'auto') return { value: 'auto' }
  const value = wholeNumber(text)
  if (value === undefined || value > PRESERVE_RECENT_TOKENS_MAX) {
    return { error: `The token budget must be a whole number from 0 to ${PRESERVE_RECENT_TOKENS_MAX.toLocaleString('en-US')}, or empty for automatic.` }
  }
  return { value }
}
