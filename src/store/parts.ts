import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { emptyTokens, MessageSchema, PartSchema, type Message, type Part, type SessionInfo, type Tokens } from '../core/schema'
import { write } from './transaction'

/**
 * The one way parts reach storage. Every row is validated against PartSchema, and a step-finish part moves the
 * session's running cost and token totals by the difference from its previous version, in the same transaction,
 * so the totals can never drift from the parts.
 */

/**
 * Stores one part and announces it (and the session, when its totals moved). With `message` (the part's own
 * message, changed), the message is stored in the same transaction and announced after them: a step's finish and
 * its message's usage are one write, and never one without the other.
 */
export async function putPart(context: StoreContext, input: Part, options: { message?: Message } = {}): Promise<Part> {
  const [part] = await putPartsAnnounced(context, [input], options)
  return part!
}

/**
 * `putPart` for several parts at once: one transaction (each part's message checked, a step-finish moving the
 * session totals), then each part announced in the order given. For states the part writer queued together, and
 * for a save that takes them (and the streamed rows, stored unannounced: `quiet`) into its own write, with its
 * message (announced last, as `putPart` does).
 *
 * Its reads go to storage together, then its writes together: two round trips to the storage process whatever the
 * rows, where awaiting each request in turn took seven for a step's finish (issue 32).
 */
export async function putPartsAnnounced(
  context: StoreContext,
  inputs: readonly Part[],
  options: { message?: Message; quiet?: readonly Part[] } = {},
): Promise<Part[]> {
  const rows = inputs.map((input) => parseWith(PartSchema, input, 'part'))
  const quiet = (options.quiet ?? []).map((input) => parseWith(PartSchema, input, 'part'))
  const info = options.message && parseWith(MessageSchema, options.message, 'message')
  if (info && rows.some((row) => info.id !== row.messageID || info.sessionID !== row.sessionID)) throw new NotFoundError('message', rows[0]!.messageID)
  const all = [...quiet, ...rows]
  const { db } = context
  await write(context, [db.sessions, db.messages, db.parts], async (announce) => {
    const messages = new Map(all.map((row) => [row.messageID, row.sessionID]))
    // Only a step-finish carries usage: the other writes (several a step) read nothing but their messages.
    const priced = all.filter((row) => usageOf(row))
    const sessionIDs = [...new Set(priced.map((row) => row.sessionID))]
    const [found, previous, sessions] = await Promise.all([
      db.messages.bulkGet([...messages.keys()]),
      priced.length ? db.parts.bulkGet(priced.map((row) => row.id)) : [],
      sessionIDs.length ? db.sessions.bulkGet(sessionIDs) : [],
    ])
    for (const [index, [messageID, sessionID]] of [...messages].entries()) {
      if (found[index]?.sessionID !== sessionID) throw new NotFoundError('message', messageID)
    }
    const moved = new Map<string, SessionInfo>()
    sessionIDs.forEach((sessionID, index) => {
      const session = sessions[index]
      if (session) moved.set(sessionID, session)
    })
    priced.forEach((row, index) => {
      const session = moved.get(row.sessionID)
      if (session) moved.set(row.sessionID, withUsage(session, usageOf(previous[index]), usageOf(row)))
    })
    await Promise.all([db.parts.bulkPut(all), ...(info ? [db.messages.put(info)] : []), ...(moved.size ? [db.sessions.bulkPut([...moved.values()])] : [])])
    for (const part of rows) announce({ type: 'part.updated', part })
    for (const session of moved.values()) announce({ type: 'session.updated', info: session })
    if (info) announce({ type: 'message.updated', info })
  })
  return [...quiet, ...rows]
}

/**
 * Stores several parts in one transaction without announcing them: the streaming flush, whose changes the UI
 * already has as live deltas. Returns the rows as stored. Nothing is written when one row is invalid.
 */
export async function putParts(context: StoreContext, inputs: readonly Part[]): Promise<Part[]> {
  const rows = inputs.map((input) => parseWith(PartSchema, input, 'part'))
  const { db } = context
  // Streamed parts (text, reasoning, tools) carry no usage: the common flush is one bulk write, with no reads.
  if (!rows.some((row) => usageOf(row))) {
    await db.parts.bulkPut(rows)
    return rows
  }
  await write(context, [db.sessions, db.parts], async (announce) => {
    const moved: SessionInfo[] = []
    for (const row of rows) {
      if (!usageOf(row)) continue
      const session = await applyUsage(context, row.sessionID, usageOf(await db.parts.get(row.id)), usageOf(row))
      if (session) moved.push(session)
    }
    await db.parts.bulkPut(rows)
    for (const info of moved) announce({ type: 'session.updated', info })
  })
  return rows
}

/**
 * Changes stored parts in one transaction, each read again inside it: `change` gets the part as stored now and
 * returns its new version, or undefined to leave it (a part no longer stored is skipped, never brought back).
 * Returns the rows written, each announced. For changes that leave usage alone: session totals are not moved.
 */
export async function rewriteParts(
  context: StoreContext,
  partIDs: readonly string[],
  change: (part: Part) => Part | undefined,
): Promise<Part[]> {
  const { db } = context
  return write(context, [db.parts], async (announce) => {
    const next: Part[] = []
    for (const part of await db.parts.bulkGet([...partIDs])) {
      const changed = part && change(part)
      if (changed) next.push(parseWith(PartSchema, changed, 'part'))
    }
    await db.parts.bulkPut(next)
    for (const part of next) announce({ type: 'part.updated', part })
    return next
  })
}

/** A message's parts as stored. */
export function partsOf(context: StoreContext, messageID: string): Promise<Part[]> {
  return context.db.parts.where('messageID').equals(messageID).toArray()
}

/** One part as stored, if it is. */
export function getPart(context: StoreContext, partID: string): Promise<Part | undefined> {
  return context.db.parts.get(partID)
}

export interface Usage {
  cost: number
  tokens: Tokens
}

export function usageOf(part: Part | undefined): Usage | undefined {
  return part?.type === 'step-finish' ? { cost: part.cost, tokens: part.tokens } : undefined
}

export function addUsage(total: Usage | undefined, next: Usage | undefined): Usage | undefined {
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
export async function applyUsage(
  context: StoreContext,
  sessionID: string,
  removed: Usage | undefined,
  added: Usage | undefined,
): Promise<SessionInfo | undefined> {
  if (!removed && !added) return undefined
  const session = await context.db.sessions.get(sessionID)
  if (!session) return undefined
  const next = withUsage(session, removed, added)
  await context.db.sessions.put(next)
  return next
}

/** The session with its totals moved by a part's usage: `removed` (its old version's) taken off, `added` put on. */
export function withUsage(session: SessionInfo, removed: Usage | undefined, added: Usage | undefined): SessionInfo {
  const tokens = session.tokens ?? emptyTokens()
  const sign = (value: number, from: (usage: Usage) => number) =>
    value + (added ? from(added) : 0) - (removed ? from(removed) : 0)
  // Float sums drift (0.1 + 0.2); clamp at zero so a removal can never leave a negative total.
  const clean = (value: number) => Math.max(0, Number(value.toFixed(10)))
  return {
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
}
