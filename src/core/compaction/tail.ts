import type { MessageWithParts } from '../dto/messages'
import { compactionOf } from './markers'
import { DEFAULT_TAIL_TURNS, TAIL_BUDGET_MAX, TAIL_BUDGET_MIN } from './tail-settings'

/** opencode's rough token count of model messages: a quarter of their JSON length. */
export function estimateTokens(messages: unknown[]): number {
  return Math.round(JSON.stringify(messages).length / 4)
}

/**
 * How many tokens the kept tail may take: the user's `preserve_recent_tokens` when set (0 keeps nothing), else
 * opencode's default, a quarter of the usable context between 2,000 and 8,000.
 */
export function tailBudget(usable: number, preserveRecentTokens?: number): number {
  if (preserveRecentTokens !== undefined) return preserveRecentTokens
  return Math.min(TAIL_BUDGET_MAX, Math.max(TAIL_BUDGET_MIN, Math.floor(usable * 0.25)))
}

/** Where each turn starts: a user message that is not a compaction marker. */
export function turnStarts(history: MessageWithParts[]): number[] {
  const starts: number[] = []
  history.forEach((entry, index) => {
    if (entry.info.role === 'user' && !compactionOf(entry)) starts.push(index)
  })
  return starts
}

export interface TailSelection {
  /** The messages to summarise. */
  head: MessageWithParts[]
  /** The recent messages kept verbatim after the summary. */
  tail: MessageWithParts[]
  /** The first tail message, when there is a tail. */
  tailStartID?: string
}

export interface TailOptions {
  budget: number
  /** The user's `tail_turns`: the most recent turns kept (opencode's 2 when absent; 0 or less: no tail). */
  turns?: number
  /** Tokens of a run of messages as the model would get them. */
  estimate: (messages: MessageWithParts[]) => number
}

/**
 * Splits the history into a head to summarise and a tail kept verbatim. Whole turns are taken from the
 * newest back while they fit the budget; the first one that does not fit is split at the earliest message whose
 * suffix (to the end of that turn) still fits. A tail that would start at the very beginning is no tail: there
 * would be nothing to summarise.
 */
export function selectTail(history: MessageWithParts[], options: TailOptions): TailSelection {
  const none: TailSelection = { head: history, tail: [] }
  const turns = options.turns ?? DEFAULT_TAIL_TURNS
  if (turns <= 0) return none
  const starts = turnStarts(history).slice(-turns)
  let start: number | undefined
  let used = 0
  for (let turn = starts.length - 1; turn >= 0; turn--) {
    const from = starts[turn]!
    const to = turn + 1 < starts.length ? starts[turn + 1]! : history.length
    const cost = options.estimate(history.slice(from, to))
    if (used + cost <= options.budget) {
      used += cost
      start = from
      continue
    }
    const remaining = options.budget - used
    for (let split = from + 1; split < to; split++) {
      if (options.estimate(history.slice(split, to)) <= remaining) {
        start = split
        break
      }
    }
    break
  }
  if (start === undefined || start === 0) return none
  return { head: history.slice(0, start), tail: history.slice(start), tailStartID: history[start]!.info.id }
}
