import type { MessageWithParts } from '../dto/messages'
import { compactionOf } from './markers'

export interface FittedHistory {
  messages: MessageWithParts[]
  /** How many of the oldest messages were left out. */
  omitted: number
}

/**
 * The newest messages that fit `budget` tokens, for a summariser whose context is smaller than the history: the
 * oldest go first, and what is kept starts at a turn (a real prompt) when one is among them, so the summariser does
 * not open on a reply to a question it never saw. When even the newest message alone is over, it is kept alone:
 * the provider's overflow then says the session is too large to summarise.
 */
export function fitToContext(history: MessageWithParts[], options: { budget: number; estimate: (entry: MessageWithParts) => number }): FittedHistory {
  let start = history.length
  let used = 0
  while (start > 0) {
    const cost = options.estimate(history[start - 1]!)
    if (used + cost > options.budget) break
    used += cost
    start--
  }
  if (start === 0) return { messages: history, omitted: 0 }
  if (start === history.length) start = history.length - 1
  const turn = history.findIndex((entry, index) => index >= start && entry.info.role === 'user' && !compactionOf(entry))
  if (turn !== -1) start = turn
  return { messages: history.slice(start), omitted: start }
}
