import type { Part, SessionInfo } from '../../core/schema'

export type RevertPoint = NonNullable<SessionInfo['revert']>

/** Index of the first row whose id is `id` or later (rows are sorted by id, which is creation order). */
function firstAtOrAfter(rows: readonly { id: string }[], id: string): number {
  let low = 0
  let high = rows.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (rows[middle]!.id < id) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The messages a reverted session still shows: those before the revert point. A revert at a part keeps its message
 * (its earlier parts stay) and hides every later message. Without a revert the list itself is returned, so nothing
 * downstream sees a change.
 */
export function visibleMessages<T extends { id: string }>(messages: readonly T[], revert: Cut | undefined): readonly T[] {
  if (!revert) return messages
  const keep = keptCount(messages, revert)
  return keep === messages.length ? messages : messages.slice(0, keep)
}

/** How many loaded messages the revert hides (the message a part revert cuts through is not counted: it stays). */
export function hiddenCount(messages: readonly { id: string }[], revert: Cut | undefined): number {
  return revert ? messages.length - keptCount(messages, revert) : 0
}

type Cut = Pick<RevertPoint, 'messageID' | 'partID'>

function keptCount(messages: readonly { id: string }[], revert: Cut): number {
  const index = firstAtOrAfter(messages, revert.messageID)
  return revert.partID && messages[index]?.id === revert.messageID ? index + 1 : index
}

/** The parts of the message a revert cuts through: those before the revert's part. */
export function partsBefore(parts: readonly Part[], partID: string | undefined): readonly Part[] {
  if (!partID) return parts
  const index = firstAtOrAfter(parts, partID)
  return index === parts.length ? parts : parts.slice(0, index)
}

/** "3 messages hidden", "1 message hidden". */
export function hiddenText(count: number): string {
  return `${count} ${count === 1 ? 'message' : 'messages'} hidden`
}

/**
 * Whether reverting at `partID` takes the whole turn: when nothing spoken (text or a tool call) comes before it in
 * its message, there is nothing of the reply to keep, so the revert goes back to the prompt (opencode's rule, as the
 * worker's `findRevertPoint` applies it). The menus say so rather than "from this call on".
 */
export function revertTakesTurn(parts: readonly Part[], partID: string): boolean {
  for (const part of parts) {
    if (part.id === partID) return true
    if (part.type === 'text' || part.type === 'tool') return false
  }
  return true
}
