import { lastOf } from '../../core/history'
import { isCompletedSummary, isRealUser, isSummary } from '../../core/compaction/markers'
import { countTokens, isOverflow, usableTokens, type ModelLimit } from '../../core/compaction/overflow'
import { overflowWithoutAuto, promptTooLarge, stillOverflowing } from '../../core/compaction/prompt'
import type { AssistantMessage, MessageError } from '../../core/schema'
import type { MessageWithParts } from '../../store/message-store'

// When the loop compacts, decided from the history and a step's outcome alone: no reads, no writes.

/** The newest reply is a completed summary that still stands: the next step is the first after a compaction. */
export function justCompacted(history: MessageWithParts[]): boolean {
  const last = lastOf(history, 'assistant')
  if (!last || !isCompletedSummary(last)) return false
  const marker = history.find((entry) => entry.info.id === (last.info as AssistantMessage).parentID)
  return !marker?.parts.some((part) => part.type === 'compaction' && part.undone !== undefined)
}

/** The check before a step: the newest finished reply, unless it is a summary, used too much of the context. */
export function lastFinishedOverflows(history: MessageWithParts[], limit: ModelLimit): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (entry.info.role !== 'assistant' || !entry.info.finish) continue
    return !isSummary(entry) && isOverflow({ tokens: entry.info.tokens, limit, auto: true })
  }
  return false
}

/**
 * What a finished step's size means (bounded). A provider overflow compacts (`overflow`: the prompt
 * is replayed), a step whose usage overflowed compacts once it is done (`usage`), except right after a compaction,
 * where either ends the turn with a ContextOverflowError offering the next move. With automatic compaction off the
 * provider's overflow ends the turn with the same advice.
 */
export function overflowVerdict(input: {
  error: MessageError | undefined
  blocked: boolean
  assistant: AssistantMessage
  settings: { auto: boolean }
  compacted: boolean
  limit: ModelLimit
  /** The history is one text-only prompt: a summary of it would not be smaller, and has no attachments to drop. */
  onlyPrompt: boolean
}): { compact?: 'overflow' | 'usage'; error?: MessageError } {
  const { error, settings } = input
  if (error?.name === 'ContextOverflowError') {
    const detail = error.data.message
    if (input.onlyPrompt) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: promptTooLarge(detail) } } }
    if (!settings.auto) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: overflowWithoutAuto(detail) } } }
    if (input.compacted) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: stillOverflowing(detail) } } }
    return { compact: 'overflow' }
  }
  if (error || input.blocked || !settings.auto) return {}
  if (!isOverflow({ tokens: input.assistant.tokens, limit: input.limit, auto: true })) return {}
  if (!input.compacted) return { compact: 'usage' }
  const used = `${countTokens(input.assistant.tokens)} tokens used, ${usableTokens(input.limit)} usable`
  return { error: { name: 'ContextOverflowError', data: { message: stillOverflowing(used) } } }
}

/** The history is one prompt of text alone. */
export function isOnlyTextPrompt(history: MessageWithParts[]): boolean {
  const [only] = history
  return history.length === 1 && !!only && isRealUser(only) && !only.parts.some((part) => part.type === 'file')
}
