import { KEY } from './database'
import type { StoreContext } from './context'
import { decodeCursor, encodeCursor, TimeCursorSchema } from '../core/cursor'
import { NotFoundError, parseWith } from '../core/errors'
import { MessageSchema, PartSchema, type Message, type Part } from '../core/schema'
import { inTurnOrder } from '../core/history'
import { clampLimit, messagesOf } from './session-store'
import type { MessagePage, MessagePageInput, MessageWithParts } from '../core/dto/messages'
import { addUsage, applyUsage, putPart, usageOf, type Usage } from './parts'
import { read, write } from './transaction'
import { partsOfMessages } from './message-parts'

export type { MessagePage, MessagePageInput, MessageWithParts }

/**
 * The newest `limit` messages older than the cursor, with all their parts, in chronological order. One indexed
 * range read for the messages (limit + 1 to know whether more exist), then their parts (`partsOfMessages`).
 */
export async function pageMessages(context: StoreContext, input: MessagePageInput): Promise<MessagePage> {
  const { db } = context
  const limit = clampLimit(input.limit)
  const cursor = input.before ? decodeCursor(input.before, TimeCursorSchema) : undefined
  const upper = cursor ? [input.sessionID, cursor.time, cursor.id] : [input.sessionID, KEY.timeMax, KEY.idMax]
  return read(context, [db.sessions, db.messages, db.parts], async () => {
    const rows = await db.messages
      .where('[sessionID+time.created+id]')
      .between([input.sessionID, KEY.timeMin, KEY.idMin], upper, true, !cursor)
      .reverse()
      .limit(limit + 1)
      .toArray()
    const page = rows.slice(0, limit)
    if (page.length === 0 && !(await db.sessions.get(input.sessionID))) {
      throw new NotFoundError('session', input.sessionID)
    }
    const byMessage = await partsOfMessages(db, page.map((message) => message.id))
    const oldest = page[page.length - 1]
    return {
      messages: page.reverse().map((info) => ({ info, parts: byMessage.get(info.id) ?? [] })),
      ...(rows.length > limit && oldest
        ? { nextCursor: encodeCursor({ id: oldest.id, time: oldest.time.created }) }
        : {}),
    }
  })
}

export async function getMessage(context: StoreContext, messageID: string): Promise<MessageWithParts> {
  const { db } = context
  return read(context, [db.messages, db.parts], async () => {
    const info = await db.messages.get(messageID)
    if (!info) throw new NotFoundError('message', messageID)
    return { info, parts: await db.parts.where('messageID').equals(messageID).toArray() }
  })
}

/** A message as stored, if it is (no parts). */
export function findMessage(context: StoreContext, messageID: string): Promise<Message | undefined> {
  return context.db.messages.get(messageID)
}

export async function updateMessage(context: StoreContext, message: Message): Promise<Message> {
  const info = parseWith(MessageSchema, message, 'message')
  const { db } = context
  await write(context, [db.sessions, db.messages], async (announce) => {
    if (!(await db.sessions.get(info.sessionID))) throw new NotFoundError('session', info.sessionID)
    await db.messages.put(info)
    announce({ type: 'message.updated', info })
  })
  return info
}

/**
 * Stores a new message, as `updateMessage` does, only if the session's messages newer than `since` (by
 * `[time.created, id]`) are exactly `known`: the caller decided from a history that held everything up to `since`
 * and has kept the rest in memory. Otherwise nothing is written and it returns false (one index read of keys, in
 * the write's own transaction).
 */
export async function addMessageIfCurrent(
  context: StoreContext,
  message: Message,
  since: { after: readonly [number, string]; known: readonly string[] },
): Promise<boolean> {
  const info = parseWith(MessageSchema, message, 'message')
  const { db } = context
  return write(context, [db.sessions, db.messages], async (announce) => {
    // Both reads at once: one round trip to storage (issue 32).
    const [session, newer] = await Promise.all([
      db.sessions.get(info.sessionID),
      db.messages
        .where('[sessionID+time.created+id]')
        .between([info.sessionID, since.after[0], since.after[1]], [info.sessionID, KEY.timeMax, KEY.idMax], false, true)
        .primaryKeys(),
    ])
    if (!session) throw new NotFoundError('session', info.sessionID)
    const known = new Set(since.known)
    if (newer.length !== known.size || newer.some((id) => !known.has(id as string))) return false
    await db.messages.put(info)
    announce({ type: 'message.updated', info })
    return true
  })
}

/** Stores a part (validated; a step-finish part moves the session totals): see `putPart`. */
export function updatePart(context: StoreContext, input: Part): Promise<Part> {
  return putPart(context, input)
}

/**
 * Stores messages and parts as they are, in one transaction, each row validated first (nothing is written when one
 * is invalid), unannounced. Session totals are not moved: for rows whose usage did not change (a repair).
 */
export async function putMessagesAndParts(
  context: StoreContext,
  input: { messages: readonly Message[]; parts: readonly Part[] },
): Promise<{ messages: Message[]; parts: Part[] }> {
  const messages = input.messages.map((message) => parseWith(MessageSchema, message, 'message'))
  const parts = input.parts.map((part) => parseWith(PartSchema, part, 'part'))
  const { db } = context
  await write(context, [db.messages, db.parts], async () => {
    await db.messages.bulkPut(messages)
    await db.parts.bulkPut(parts)
  })
  return { messages, parts }
}

/** A live-only text delta: the UI appends it; storage gets the whole part on the next flush. */
export function partDelta(
  context: StoreContext,
  delta: { sessionID: string; messageID: string; partID: string; delta: string },
): void {
  context.emit({ type: 'part.delta', field: 'text', ...delta })
}

export async function removePart(context: StoreContext, partID: string): Promise<void> {
  const { db } = context
  await write(context, [db.sessions, db.parts], async (announce) => {
    const part = await db.parts.get(partID)
    if (!part) throw new NotFoundError('part', partID)
    await db.parts.delete(partID)
    const session = await applyUsage(context, part.sessionID, usageOf(part), undefined)
    announce({ type: 'part.removed', sessionID: part.sessionID, messageID: part.messageID, partID })
    if (session) announce({ type: 'session.updated', info: session })
  })
}

export async function removeMessage(context: StoreContext, messageID: string): Promise<void> {
  const { db } = context
  await write(context, [db.sessions, db.messages, db.parts], async (announce) => {
    const message = await db.messages.get(messageID)
    if (!message) throw new NotFoundError('message', messageID)
    const parts = await db.parts.where('messageID').equals(messageID).toArray()
    await db.parts.bulkDelete(parts.map((part) => part.id))
    await db.messages.delete(messageID)
    const removed = parts.map(usageOf).reduce<Usage | undefined>(addUsage, undefined)
    const session = await applyUsage(context, message.sessionID, removed, undefined)
    announce({ type: 'message.removed', sessionID: message.sessionID, messageID })
    if (session) announce({ type: 'session.updated', info: session })
  })
}

/**
 * The messages a runner that died could have left open, oldest first, with their parts: at least the newest
 * `atLeast` messages (the whole of a shorter session), and on back to the newest completed reply. A session's turns
 * run one at a time and the app completes a reply only after closing its parts, so what lies further back is closed;
 * the margin keeps repairing rows written otherwise (by older builds, by fixtures) in all but very long sessions.
 * Read newest first through the messages' index, so opening a session of 100,000 messages reads a page of rows.
 */
export async function loadOpenTail(context: StoreContext, sessionID: string, atLeast = 1_000): Promise<MessageWithParts[]> {
  const { db } = context
  return read(context, [db.messages, db.parts], async () => {
    const tail: Message[] = []
    await messagesOf(context, sessionID)
      .reverse()
      .until((message) => tail.length >= atLeast && message.role === 'assistant' && message.time.completed !== undefined, true)
      .each((message) => void tail.push(message))
    const byMessage = await partsOfMessages(db, tail.map((message) => message.id))
    return tail.reverse().map((info) => ({ info, parts: byMessage.get(info.id) ?? [] }))
  })
}

/** The whole history of a session, oldest first, each reply in its prompt's turn: what each step decides from. */
export async function loadHistory(context: StoreContext, sessionID: string): Promise<MessageWithParts[]> {
  const { db } = context
  return read(context, [db.messages, db.parts], async () => {
    const messages = await messagesOf(context, sessionID).toArray()
    const parts = await db.parts.where('sessionID').equals(sessionID).toArray()
    const byMessage = new Map<string, Part[]>()
    for (const part of parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      const list = byMessage.get(part.messageID)
      if (list) list.push(part)
      else byMessage.set(part.messageID, [part])
    }
    return inTurnOrder(messages.map((info) => ({ info, parts: byMessage.get(info.id) ?? [] })))
  })
}
