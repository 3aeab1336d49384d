import { countTokens, usableTokens, type ModelLimit } from '../../core/compaction/overflow'
import type { Tokens } from '../../core/schema'
import { formatTokenCount as formatTokens } from '../kit/format/usage'

export interface ContextUse {
  /** Tokens the last step held: its input (cache included) and its reply, as compaction counts them. */
  used: number
  /** The model's context window. */
  limit: number
  /** Where automatic compaction starts: the window less the room kept for a reply. */
  threshold: number
  /** used / limit, 0..1. */
  fraction: number
  /** "42k of 128k", for the header. */
  text: string
  /** What compaction will do, in words. */
  note: string
}

/**
 * How full the model's context was at the last step, and when compaction comes in (as opencode counts it: the step's tokens
 * against the usable part of the window). Undefined when the model's window is unknown: nothing to measure against.
 */
export function contextUse(tokens: Tokens | undefined, limit: ModelLimit | undefined, auto: boolean): ContextUse | undefined {
  if (!limit || limit.context === 0) return undefined
  const used = tokens ? countTokens(tokens) : 0
  const threshold = usableTokens(limit)
  const fraction = Math.min(1, used / limit.context)
  const left = Math.max(0, threshold - used)
  const note = !auto
    ? `Automatic compaction is off: at ${formatTokens(threshold)} the history no longer fits, and the next reply fails until you compact.`
    : left === 0
      ? 'Full: the next prompt is summarised first, then answered from the summary and the latest turns.'
      : `Compacts automatically at ${formatTokens(threshold)} (room is kept for a reply): the older turns become a summary, ${formatTokens(left)} from now.`
  return { used, limit: limit.context, threshold, fraction, text: `${formatTokens(used)} of ${formatTokens(limit.context)}`, note }
}
