import type { MessageWithParts } from '../dto/messages'
import type { AssistantMessage, PartOf } from '../schema'

export type CompactionPart = PartOf<'compaction'>

/** The compaction part of a marker message (a user message that asks for a summary); undefined for anything else. */
export function compactionOf(entry: MessageWithParts): CompactionPart | undefined {
  if (entry.info.role !== 'user') return undefined
  return entry.parts.find((part): part is CompactionPart => part.type === 'compaction')
}

export function isSummary(entry: MessageWithParts): entry is MessageWithParts & { info: AssistantMessage } {
  return entry.info.role === 'assistant' && entry.info.summary === true
}

/** A summary that finished without an error: the history before its marker may be replaced by it. */
export function isCompletedSummary(entry: MessageWithParts): boolean {
  return isSummary(entry) && !entry.info.error && entry.info.finish !== undefined && entry.info.finish !== 'error'
}

/** A user message the user (or a replay of theirs) wrote: not a compaction marker. */
export function isRealUser(entry: MessageWithParts): boolean {
  return entry.info.role === 'user' && !compactionOf(entry)
}

/** The summary text of a summary message. */
export function summaryText(entry: MessageWithParts): string {
  return entry.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim()
}

/** The message a compaction follow-up carries on its text parts: a replayed prompt or the synthetic "continue". */
export function isFollowUp(entry: MessageWithParts): boolean {
  return (
    entry.info.role === 'user' &&
    entry.parts.some((part) => part.type === 'text' && (part.metadata?.compaction_continue === true || typeof part.metadata?.compaction_replay === 'string'))
  )
}

/**
 * For an overflow marker at `markerIndex`: the index of the prompt that overflowed, which is summarised no more but
 * replayed after the summary. That is the newest real user message before the marker, provided a real one remains
 * before it (otherwise everything is summarised and nothing replayed). Pure, so the history filter finds the same one.
 */
export function replayIndex(history: MessageWithParts[], markerIndex: number): number | undefined {
  const marker = history[markerIndex]
  if (!marker || !compactionOf(marker)?.overflow) return undefined
  let found: number | undefined
  for (let index = markerIndex - 1; index >= 0; index--) {
    if (!isRealUser(history[index]!)) continue
    if (found === undefined) found = index
    else return found
  }
  return undefined
}

/**
 * The marker the loop must answer first: the newest user message is a marker and has no summary yet, or (when the
 * user asked to resume) its summary failed with an error worth another try. A summariser that overflowed is final.
 */
export function pendingMarker(history: MessageWithParts[], options: { resume?: boolean } = {}): MessageWithParts | undefined {
  let user: MessageWithParts | undefined
  for (const entry of history) if (entry.info.role === 'user' && (!user || entry.info.id > user.info.id)) user = entry
  if (!user || !compactionOf(user)) return undefined
  let summary: MessageWithParts | undefined
  for (const entry of history) if (isSummary(entry) && (entry.info as AssistantMessage).parentID === user.info.id) summary = entry
  if (!summary) return user
  const error = (summary.info as AssistantMessage).error
  return options.resume && error && error.name !== 'ContextOverflowError' ? user : undefined
}
