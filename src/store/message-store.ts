import { KEY } from './database'
import type { StoreContext } from './context'
import { decodeCursor, encodeCursor, TimeCursorSchema } from '../core/cursor'
import { NotFoundError, parseWith } from '../core/errors'
import {
  emptyTokens,
  MessageSchema,
  PartSchema,
  type Message,
  type Part,
  type SessionInfo,
  type Tokens,
} from '../core/schema'
import { inTurnOrder } from '../core/history'
import { clampLimit, messagesOf } from './session-store'
import type { MessagePage, MessagePageInput, MessageWithParts } from '../core/dto/messages'

export type { MessagePage, MessagePageInput, MessageWithParts }

/**
 * The newest `limit` messages older than the cursor, with all their parts, in chronological order. One indexed
 * range read for the messages (limit + 1 to know whether more exist) and one `anyOf` for their parts.
 */
export async function pageMessages(context: StoreContext, input: MessagePageInput): Promise<MessagePage> {
  const { db } = context
  const limit = clampLimit(input.limit)
  const cursor = input.before ? decodeCursor(input.before, TimeCursorSchema) : undefined
  const upper = cursor ? [input.sessionID, cursor.time, cursor.id] : [input.sessionID, KEY.timeMax, KEY.idMax]
  return db.transaction('r', db.sessions, db.messages, db.parts, async () => {
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
    const parts = await db.parts
      .where('messageID')
      .anyOf(page.map((message) => message.id))
      .toArray()
    const byMessage = new Map<string, Part[]>()
    for (const part of parts) {
      const list = byMessage.get(part.messageID)
      if (list) list.push(part)
      else byMessage.set(part.messageID, [part])
    }
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
  return db.transaction('r', db.messages, db.parts, async () => {
    const info = await db.messages.get(messageID)
    if (!info) throw new NotFoundError('message', messageID)
    return { info, parts: await db.parts.where('messageID').equals(messageID).toArray() }
  })
}

export async function updateMessage(context: StoreContext, message: Message): Promise<Message> {
  const info = parseWith(MessageSchema, message, 'message')
  const { db } = context
  await db.transaction('rw', db.sessions, db.messages, async () => {
    if (!(await db.sessions.get(info.sessionID))) throw new NotFoundError('session', info.sessionID)
    await db.messages.put(info)
  })
  context.emit({ type: 'message.updated', info })
  return info
}

/**
 * Stores a part. A step-finish part also moves the session's running cost and token totals by the difference
 * from its previous version, in the same transaction, so the totals can never drift from the parts.
 */
export async function updatePart(context: StoreContext, input: Part): Promise<Part> {
  const part = parseWith(PartSchema, input, 'part')
  const { db } = context
  const session = await db.transaction('rw', db.sessions, db.messages, db.parts, async () => {
    const message = await db.messages.get(part.messageID)
    if (!message || message.sessionID !== part.sessionID) throw new NotFoundError('message', part.messageID)
    const previous = await db.parts.get(part.id)
    await db.parts.put(part)
    return applyUsage(context, part.sessionID, usageOf(previous), usageOf(part))
  })
  context.emit({ type: 'part.updated', part })
  if (session) context.emit({ type: 'session.updated', info: session })
  return part
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
  const result = await db.transaction('rw', db.sessions, db.parts, async () => {
    const part = await db.parts.get(partID)
    if (!part) throw new NotFoundError('part', partID)
    await db.parts.delete(partID)
    return { part, session: await applyUsage(context, part.sessionID, usageOf(part), undefined) }
  })
  const { part, session } = result
  context.emit({ type: 'part.removed', sessionID: part.sessionID, messageID: part.messageID, partID })
  if (session) context.emit({ type: 'session.updated', info: session })
}

export async function removeMessage(context: StoreContext, messageID: string): Promise<void> {
  const { db } = context
  const result = await db.transaction('rw', db.sessions, db.messages, db.parts, async () => {
    const message = await db.messages.get(messageID)
    if (!message) throw new NotFoundError('message', messageID)
    const parts = await db.parts.where('messageID').equals(messageID).toArray()
    await db.parts.bulkDelete(parts.map((part) => part.id))
    await db.messages.delete(messageID)
    const removed = parts.map(usageOf).reduce<Usage | undefined>(addUsage, undefined)
    return { message, session: await applyUsage(context, message.sessionID, removed, undefined) }
  })
  context.emit({ type: 'message.removed', sessionID: result.message.sessionID, messageID })
  if (result.session) context.emit({ type: 'session.updated', info: result.session })
}

interface Usage {
  cost: number
  tokens: Tokens
}

function usageOf(part: Part | undefined): Usage | undefined {
  return part?.type === 'step-finish' ? { cost: part.cost, tokens: part.tokens } : undefined
}

function addUsage(total: Usage | undefined, next: Usage | undefined): Usage | undefined {
  if (!total) return next
  if (!next) return total
  return {
    cost: total.cost + next.cost,
    tokens: {
      input: total.tokens.input + next.tokens.input,
      output: total.tokens.output + next.tokens.output,
      reasoning: total.tokens.reasoning + next.tokens.reasoning,
      cache: {
        read: total.tokens.cache.read + next.tokens.cache.read,
        write: total.tokens.cache.write + next.tokens.cache.write,
      },
    },
  }
}

/** Must run inside a transaction that includes `sessions`. Returns the updated session, if anything changed. */
async function applyUsage(
  context: StoreContext,
  sessionID: string,
  removed: Usage | undefined,
  added: Usage | undefined,
): Promise<SessionInfo | undefined> {
  if (!removed && !added) return undefined
  const session = await context.db.sessions.get(sessionID)
  if (!session) return undefined
  const tokens = session.tokens ?? emptyTokens()
  const sign = (value: number, from: (usage: Usage) => number) =>
    value + (added ? from(added) : 0) - (removed ? from(removed) : 0)
  // Float sums drift (0.1 + 0.2); clamp at zero so a removal can never leave a negative total.
  const clean = (value: number) => Math.max(0, Number(value.toFixed(10)))
  const next: SessionInfo = {
    ...session,
    cost: clean(sign(session.cost ?? 0, (usage) => usage.cost)),
    tokens: {
      input: clean(sign(tokens.input, (usage) => usage.tokens.input)),
      output: clean(sign(tokens.output, (usage) => usage.tokens.output)),
      reasoning: clean(sign(tokens.reasoning, (usage) => usage.tokens.reasoning)),
      cache: {
        read: clean(sign(tokens.cache.read, (usage) => usage.tokens.cache.read)),
        write: clean(sign(tokens.cache.write, (usage) => usage.tokens.cache.write)),
      },
    },
  }
  await context.db.sessions.put(next)
  return next
}

/** The whole history of a session, oldest first, each reply in its prompt's turn: what each step decides from. */
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
    return inTurnOrder(messages.map((info) => ({ info, parts: byMessage.get(info.id) ?? [] })))
  })
}
