import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { SessionInfoSchema, type Part, type SessionInfo } from '../core/schema'
import { messagesOf, moveTotals, usageOfParts } from './session-store'
import { write } from './transaction'
import { partsOfMessages } from './message-parts'

type RevertPoint = NonNullable<SessionInfo['revert']>

/** Which rows a pending revert hides: the revert rules are the runtime's, the store only applies them. */
export interface HiddenRows {
  message(point: RevertPoint, messageID: string): boolean
  part(point: RevertPoint, part: Part): boolean
}

export interface RemovedRevert {
  /** The session as stored now: `revert` cleared, totals without the removed step-finish parts. */
  session: SessionInfo
  messageIDs: string[]
  /** The parts removed from the partly reverted message (the one the revert point is in), if any. */
  partial: Part[]
}

/**
 * Removes what the session's pending revert hides, in one transaction: the hidden messages with their parts and
 * saved tool outputs, the hidden parts of a partly reverted message with theirs, and `revert` itself; the totals
 * follow the parts that go; every tab hears of each removal, then of the session. Undefined (and nothing written)
 * when the session has no pending revert.
 */
export async function removeRevertedRows(context: StoreContext, sessionID: string, hidden: HiddenRows): Promise<RemovedRevert | undefined> {
  const { db } = context
  return write(context, [db.sessions, db.messages, db.parts, db.outputs], async (announce) => {
    const session = await db.sessions.get(sessionID)
    if (!session) throw new NotFoundError('session', sessionID)
    const revert = session.revert
    if (!revert) return undefined
    const messageIDs = await messagesOf(context, sessionID)
      .filter((message) => hidden.message(revert, message.id))
      .primaryKeys()
    const removedMessages = new Set(messageIDs)
    const whole = [...(await partsOfMessages(db, messageIDs as string[])).values()].flat()
    const partial = revert.partID
      ? (await db.parts.where('messageID').equals(revert.messageID).toArray()).filter((part) => hidden.part(revert, part))
      : []
    const partialIDs = new Set(partial.map((part) => part.id))
    await db.parts.bulkDelete([...whole, ...partial].map((part) => part.id))
    await db.messages.bulkDelete(messageIDs)
    const outputs = await db.outputs
      .where('sessionID')
      .equals(sessionID)
      .filter((output) => removedMessages.has(output.messageID) || partialIDs.has(output.partID))
      .primaryKeys()
    await db.outputs.bulkDelete(outputs)
    // Totals are the sum of the session's step-finish parts, so they follow the parts that go.
    const next: SessionInfo = { ...session, ...moveTotals(session, usageOfParts([...whole, ...partial]), -1) }
    delete next.revert
    const stored = parseWith(SessionInfoSchema, next, 'session')
    await db.sessions.put(stored)
    for (const messageID of messageIDs) announce({ type: 'message.removed', sessionID, messageID })
    for (const part of partial) announce({ type: 'part.removed', sessionID, messageID: part.messageID, partID: part.id })
    announce({ type: 'session.updated', info: stored })
    return { session: stored, messageIDs, partial }
  })
}
