import type { StoreContext } from '../../store/context'
import { loadHistory, type MessageWithParts } from '../../store/message-store'
import { loadRecentHistory, type RecentHistory } from '../../store/recent-history'
import { rewriteParts } from '../../store/parts'
import { type AssistantMessage, type Part, type PartOf } from '../../core/schema'
import { compactionOf, isSummary } from '../../core/compaction/markers'

/** The newest tool output tokens that are never cleared. */
export const PRUNE_PROTECT = 40_000
/** Clearing less than this is not worth losing the outputs for. */
export const PRUNE_MINIMUM = 20_000
/** Tools whose output stays: it is instructions the agent keeps following. */
export const PRUNE_PROTECTED_TOOLS = ['skill']

type ToolPart = PartOf<'tool'>

const estimate = (text: string) => Math.round(text.length / 4)

/**
 * The completed tool parts whose outputs the model no longer needs. Walking back from the newest message,
 * the latest turn is skipped (nothing is looked at before the second user message from the end), then tool outputs
 * are counted newest first; once more than PRUNE_PROTECT tokens of them are behind, every older one is a candidate.
 * The walk stops at a summary (older history is not sent any more) and at an output already cleared (everything
 * older was dealt with then). Only when the candidates add up to more than PRUNE_MINIMUM tokens are they returned.
 */
export function prunableParts(history: MessageWithParts[]): ToolPart[] {
  return pruneWalk(history).candidates
}

/** `prunableParts`, and whether the walk stopped before the history's oldest message (what is older never counts). */
function pruneWalk(history: MessageWithParts[]): { candidates: ToolPart[]; stopped: boolean } {
  const undone = new Set(history.filter((entry) => compactionOf(entry)?.undone).map((entry) => entry.info.id))
  const candidates: ToolPart[] = []
  let turns = 0
  let total = 0
  let pruned = 0
  let stopped = false
  walk: for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (entry.info.role === 'user') turns++
    if (turns < 2) continue
    // An undone summary no longer stands in for the history before it.
    if (isSummary(entry) && !undone.has((entry.info as AssistantMessage).parentID)) {
      stopped = true
      break
    }
    for (let partIndex = entry.parts.length - 1; partIndex >= 0; partIndex--) {
      const part = entry.parts[partIndex]!
      if (part.type !== 'tool' || part.state.status !== 'completed') continue
      if (PRUNE_PROTECTED_TOOLS.includes(part.tool)) continue
      if (part.state.time.compacted) {
        stopped = true
        break walk
      }
      const tokens = estimate(part.state.output)
      total += tokens
      if (total > PRUNE_PROTECT) {
        pruned += tokens
        candidates.push(part)
      }
    }
  }
  return { candidates: pruned > PRUNE_MINIMUM ? candidates : [], stopped }
}

/**
 * Marks old tool outputs cleared (`time.compacted`): they stay stored and shown, and the model gets "[Old tool
 * result content cleared]" in their place. It runs after the loop lets go of the session, so each part is read
 * again inside the write: one removed meanwhile (a revert) is not brought back. Returns how many were cleared.
 */
export async function pruneSession(
  store: StoreContext,
  sessionID: string,
  /**
   * The loop's read at its end. A turn begun since then only makes more outputs old enough to clear: the next
   * prune clears those.
   */
  settled?: RecentHistory,
): Promise<number> {
  // Usually the walk stops at the last summary, inside the history since the last compaction; right after one it
  // goes on past it (the newest turn is skipped whole), and then only the whole session says where it stops.
  const recent = settled ?? (await loadRecentHistory(store, sessionID))
  // Where the read left replies out, a walk that goes on past there must see them: only the part after it counts.
  const from = recent.skippedBefore ? recent.history.findIndex((entry) => entry.info.id === recent.skippedBefore) : 0
  const walk = pruneWalk(recent.history.slice(Math.max(0, from)))
  const candidates = walk.stopped || recent.whole ? walk.candidates : prunableParts(await loadHistory(store, sessionID))
  if (candidates.length === 0) return 0
  const now = store.now()
  const updated = await rewriteParts(
    store,
    candidates.map((part) => part.id),
    (part): Part | undefined =>
      part.type !== 'tool' || part.state.status !== 'completed' || part.state.time.compacted
        ? undefined
        : { ...part, state: { ...part.state, time: { ...part.state.time, compacted: now } } },
  )
  return updated.length
}
