import type { StoreContext } from './context'
import type { MessageWithParts } from './message-store'
import { messagesOf } from './session-store'
import type { Part } from './schema'

/** The whole history of a session, oldest first: what each step of the loop decides from. */
export async function loadHistory(context: StoreContext, sessionID: string): Promise<MessageWithParts[]> {
  const { db } = context
  return db.transaction('r', db.messages, db.parts, async () => {
    const messages = await messagesOf(context, sessionID).toArray()
    const parts = await db.parts.where('sessionID').equals(sessionID).toArray()
    const byMessage = new Map<string, Part[]>()
    for (const part of parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      const list = byMessage.get(part.messageID)
      if (list) list.push(part)
      else byMessage.set(part.messageID, [part])
    }
    return messages.map((info) => ({ info, parts: byMessage.get(info.id) ?? [] }))
  })
}

export function lastOf(history: MessageWithParts[], role: 'user' | 'assistant'): MessageWithParts | undefined {
  let found: MessageWithParts | undefined
  for (const entry of history) if (entry.info.role === role && (!found || entry.info.id > found.info.id)) found = entry
  return found
}

/** A tool part that still expects a result: anything but an interrupted orphan or a provider-executed call. */
function isLiveToolPart(part: Part): boolean {
  if (part.type !== 'tool') return false
  if (part.metadata?.providerExecuted === true) return false
  return !(part.state.status === 'error' && part.state.metadata?.interrupted === true)
}

/**
 * The loop's exit rule: the newest assistant message answers the newest user message, finished for a reason other
 * than calling tools, and has no tool calls whose results the model has not seen yet (some providers say `stop`
 * after calling tools). A turn that ended in an error is over too, unless the user asked to resume it. A compaction
 * marker with no answer yet is work; its summary ends the turn (an automatic compaction adds the message that
 * carries on), whatever the summariser's finish reason: its tools are never run.
 */
export function turnIsDone(history: MessageWithParts[], options: { resume?: boolean } = {}): boolean {
  const user = lastOf(history, 'user')
  if (!user) return true
  const assistant = lastOf(history, 'assistant')
  if (!assistant || assistant.info.role !== 'assistant' || assistant.info.id < user.info.id) return false
  if (assistant.info.error) return !options.resume || assistant.info.error.name === 'ContextOverflowError'
  if (assistant.info.summary) return true
  const finish = assistant.info.finish
  if (!finish || finish === 'tool-calls' || finish === 'unknown') return false
  return !assistant.parts.some(isLiveToolPart)
}
