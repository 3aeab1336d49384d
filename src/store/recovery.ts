import type { StoreContext } from './context'
import { loadOpenTail, putMessagesAndParts, type MessageWithParts } from './message-store'
import { findSession } from './session-store'
import { ABORTED_TOOL_TEXT } from '../core/history'
import { isImported } from '../core/read-only'
import type { Message, Part } from '../core/schema'
import { write } from './transaction'

export const DIED_MESSAGE = 'The tab running this turn was closed before it finished'

/**
 * What a runner that died mid-turn left open, closed as its own cleanup would have done: text
 * and reasoning get end times, unfinished tools become errors marked interrupted, and the message gets an aborted
 * error (saying `reason`) and a completion time. Pure: returns only the rows that change.
 */
export function repairHistory(history: readonly MessageWithParts[], now: number, reason = DIED_MESSAGE): { messages: Message[]; parts: Part[] } {
  const messages: Message[] = []
  const parts: Part[] = []
  for (const { info, parts: list } of history) {
    if (info.role !== 'assistant') continue
    for (const part of list) {
      if ((part.type === 'text' && part.time && part.time.end === undefined) || (part.type === 'reasoning' && part.time.end === undefined)) {
        parts.push({ ...part, time: { start: part.time!.start, end: now } } as Part)
      } else if (part.type === 'tool' && (part.state.status === 'pending' || part.state.status === 'running')) {
        const state = part.state
        parts.push({
          ...part,
          state: {
            status: 'error',
            input: state.input,
            error: ABORTED_TOOL_TEXT,
            metadata: { ...(state.status === 'running' ? state.metadata : {}), interrupted: true },
            time: { start: state.status === 'running' ? state.time.start : now, end: now },
          },
        })
      }
    }
    if (info.time.completed === undefined) {
      messages.push({
        ...info,
        time: { ...info.time, completed: now },
        ...(info.error ? {} : { error: { name: 'MessageAbortedError' as const, data: { message: reason } } }),
      })
    }
  }
  return { messages, parts }
}

/**
 * Repairs a session in one transaction; call only while holding its runner lock. Returns whether anything changed.
 * An imported session is a record of someone else's run, not a turn that died here: it is left exactly as imported
 * (and so exports exactly as imported).
 */
export async function repairSession(context: StoreContext, sessionID: string): Promise<boolean> {
  const session = await findSession(context, sessionID)
  if (!session || isImported(session)) return false
  // Only the newest messages can be open (see loadOpenTail): reading the whole history made a 100,000-message
  // session take ~4 s to open.
  const repair = repairHistory(await loadOpenTail(context, sessionID), context.now())
  if (repair.messages.length === 0 && repair.parts.length === 0) return false
  const { db } = context
  await write(context, [db.messages, db.parts], async (announce) => {
    const stored = await putMessagesAndParts(context, repair)
    for (const info of stored.messages) announce({ type: 'message.updated', info })
    for (const part of stored.parts) announce({ type: 'part.updated', part })
  })
  return true
}
