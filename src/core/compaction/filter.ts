import type { MessageWithParts } from '../dto/messages'
import type { AssistantMessage } from '../schema'
import { compactionOf, isCompletedSummary, isFollowUp, isSummary, replayIndex } from './markers'

export interface FilteredHistory {
  /** The messages the model gets, in the order it gets them. */
  messages: MessageWithParts[]
  /** The summary the history starts from, when it was compacted. */
  summaryMessageID?: string
}

function summariesByMarker(history: MessageWithParts[]): Map<string, MessageWithParts> {
  const summaries = new Map<string, MessageWithParts>()
  for (const entry of history) if (isSummary(entry)) summaries.set((entry.info as AssistantMessage).parentID, entry)
  return summaries
}

/**
 * The stored history without what no request should carry, in stored order:
 * - a compaction the user undid: its marker, its summary and the message that resumed after it (a replay or
 *   "continue"), so the model sees the full history again;
 * - a compaction that never completed (it failed, or is still running, except `keep`): opencode sends its marker as
 *   a stray "What did we do so far?";
 * - the attempt a completed overflow compaction replaced: the prompt that overflowed and what followed it up to the
 *   marker. The prompt was replayed after the summary; kept here it would reach the model twice.
 */
export function visibleHistory(history: MessageWithParts[], keep?: string): MessageWithParts[] {
  const summaries = summariesByMarker(history)
  const dropped = new Set<string>()
  history.forEach((entry, index) => {
    const compaction = compactionOf(entry)
    if (!compaction || entry.info.id === keep) return
    const summary = summaries.get(entry.info.id)
    if (!compaction.undone && summary && isCompletedSummary(summary)) return
    dropped.add(entry.info.id)
    if (summary) dropped.add(summary.info.id)
    if (compaction.undone) {
      const next = history.slice(index + 1).find((later) => later.info.role === 'user')
      if (next && isFollowUp(next)) dropped.add(next.info.id)
    }
  })
  const kept = history.filter((entry) => !dropped.has(entry.info.id))
  const superseded = new Set<string>()
  kept.forEach((entry, index) => {
    if (entry.info.id === keep || !compactionOf(entry)?.overflow) return
    const replay = replayIndex(kept, index)
    if (replay !== undefined) for (const replaced of kept.slice(replay, index)) superseded.add(replaced.info.id)
  })
  return kept.filter((entry) => !superseded.has(entry.info.id))
}

/**
 * opencode's order after a compaction, over a visible history: the newest completed marker (sent as "What
 * did we do so far?"), its summary (the answer), the kept tail from `tail_start_id` up to the marker, then everything
 * after the summary. Older markers and summaries inside the tail are left out: the newer summary covers them.
 */
export function orderCompacted(visible: MessageWithParts[]): FilteredHistory {
  const summaries = summariesByMarker(visible)
  let markerIndex = -1
  for (let index = visible.length - 1; index >= 0 && markerIndex < 0; index--) {
    const entry = visible[index]!
    const summary = summaries.get(entry.info.id)
    if (compactionOf(entry) && summary && isCompletedSummary(summary)) markerIndex = index
  }
  if (markerIndex < 0) return { messages: visible }
  const marker = visible[markerIndex]!
  const summary = summaries.get(marker.info.id)!
  const tailStart = compactionOf(marker)!.tail_start_id
  const start = tailStart ? visible.findIndex((entry) => entry.info.id === tailStart) : -1
  const tail = start >= 0 && start < markerIndex ? visible.slice(start, markerIndex).filter((entry) => !compactionOf(entry) && !isSummary(entry)) : []
  const after = visible.slice(markerIndex + 1).filter((entry) => entry !== summary)
  return { messages: [marker, summary, ...tail, ...after], summaryMessageID: summary.info.id }
}

/** The history the next request is built from: the visible history in compaction order. */
export function filterCompacted(history: MessageWithParts[]): FilteredHistory {
  return orderCompacted(visibleHistory(history))
}
