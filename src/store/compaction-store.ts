import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { ascending } from '../core/id'
import type { MessageWithParts } from './message-store'
import { PartSchema, UserMessageSchema, type ModelReference, type Part, type UserMessage } from '../core/schema'
import { attachedNote, CONTINUE_TEXT, MEDIA_REMOVED_TEXT } from '../core/compaction/prompt'
import { write } from './transaction'

/** Files whose content already reached the model as synthetic text; they are copied as they are. */
const INLINED_MIMES = new Set(['text/plain', 'application/x-directory'])

type NewPart = Record<string, unknown> & { type: Part['type'] }

/** Stores a user message written by tabcode (a marker or a follow-up) and touches the session, in one transaction. */
async function storeUserMessage(context: StoreContext, info: UserMessage, drafts: NewPart[]): Promise<MessageWithParts> {
  const now = context.now()
  const message = parseWith(UserMessageSchema, info, 'message')
  const parts = drafts.map((draft) => parseWith(PartSchema, { ...draft, id: ascending('part', now), sessionID: info.sessionID, messageID: info.id }, 'part'))
  const { db } = context
  await write(context, [db.sessions, db.messages, db.parts], async (announce) => {
    const current = await db.sessions.get(info.sessionID)
    if (!current) throw new NotFoundError('session', info.sessionID)
    await db.messages.add(message)
    await db.parts.bulkAdd(parts)
    const touched = { ...current, time: { ...current.time, updated: Math.max(now, current.time.updated) } }
    await db.sessions.put(touched)
    announce({ type: 'message.updated', info: message })
    for (const part of parts) announce({ type: 'part.updated', part })
    announce({ type: 'session.updated', info: touched })
  })
  return { info: message, parts }
}

const newUser = (context: StoreContext, input: { sessionID: string; agent: string; model: ModelReference }): UserMessage => {
  const now = context.now()
  return { id: ascending('message', now), sessionID: input.sessionID, role: 'user', time: { created: now }, agent: input.agent, model: input.model }
}

/** The request for a summary: a user message, for the turn's agent and model, with one compaction part. */
export function createCompactionMarker(
  context: StoreContext,
  input: { sessionID: string; agent: string; model: ModelReference; auto: boolean; overflow?: boolean },
): Promise<MessageWithParts> {
  return storeUserMessage(context, newUser(context, input), [
    { type: 'compaction', auto: input.auto, ...(input.overflow ? { overflow: true } : {}) },
  ])
}

/**
 * The prompt that overflowed, asked again after the summary: a new message with the same agent, model, format,
 * tools and system, and the same parts except media, which become a note naming them (they were what did not fit).
 * Its text parts say which message they replay, so an undo can take the copy back out of the history.
 */
export function replayPrompt(context: StoreContext, original: MessageWithParts): Promise<MessageWithParts> {
  const info = original.info as UserMessage
  const copy: UserMessage = {
    ...newUser(context, info),
    ...(info.format ? { format: info.format } : {}),
    ...(info.tools ? { tools: info.tools } : {}),
    ...(info.system ? { system: info.system } : {}),
  }
  const drafts: NewPart[] = []
  for (const part of original.parts) {
    if (part.type === 'compaction' || part.type === 'step-start' || part.type === 'step-finish') continue
    const { id: _id, messageID: _message, sessionID: _session, ...rest } = part
    if (part.type === 'file' && !INLINED_MIMES.has(part.mime)) {
      drafts.push({ type: 'text', text: attachedNote(part.mime, part.filename), synthetic: true, metadata: { compaction_replay: info.id } })
    } else if (part.type === 'text') {
      drafts.push({ ...rest, metadata: { ...part.metadata, compaction_replay: info.id } })
    } else {
      drafts.push(rest as NewPart)
    }
  }
  if (!drafts.some((draft) => draft.type === 'text')) drafts.push({ type: 'text', text: '', synthetic: true, metadata: { compaction_replay: info.id } })
  return storeUserMessage(context, copy, drafts)
}

/** The synthetic "continue" after an automatic compaction with nothing to replay. */
export function continueMessage(
  context: StoreContext,
  input: { sessionID: string; agent: string; model: ModelReference; overflow: boolean },
): Promise<MessageWithParts> {
  const text = input.overflow ? `${MEDIA_REMOVED_TEXT}\n\n${CONTINUE_TEXT}` : CONTINUE_TEXT
  return storeUserMessage(context, newUser(context, input), [{ type: 'text', text, synthetic: true, metadata: { compaction_continue: true } }])
}
