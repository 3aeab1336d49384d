import type { StoreContext } from './context'
import { InputError, NotFoundError, parseWith } from '../core/errors'
import { ascending } from '../core/id'
import { InboxEntrySchema, PartSchema, UserMessageSchema, type InboxEntry, type ModelReference, type Part, type PromptPartInput, type UserMessage } from '../core/schema'
import { write } from './transaction'

export const DEFAULT_AGENT = 'build'

export interface UserPromptInput {
  sessionID: string
  parts: PromptPartInput[]
  model: ModelReference
  agent?: string
}

/** Refuses a prompt with nothing in it (checked again when it is stored; callers may check before other work). */
export function checkPromptParts(parts: PromptPartInput[]): void {
  if (!parts.some((part) => part.type !== 'text' || part.text.trim().length > 0)) {
    throw new InputError('parts', 'A prompt needs some text or a file')
  }
}

/** Stores a user message with its parts and touches the session, all in one transaction. */
export async function createUserMessage(context: StoreContext, input: UserPromptInput): Promise<{ info: UserMessage; parts: Part[] }> {
  checkPromptParts(input.parts)
  const now = context.now()
  const info = parseWith(
    UserMessageSchema,
    { id: ascending('message', now), sessionID: input.sessionID, role: 'user', time: { created: now }, agent: input.agent ?? DEFAULT_AGENT, model: input.model },
    'message',
  )
  const parts = input.parts.map((part) =>
    parseWith(PartSchema, { ...part, id: ascending('part', now), sessionID: input.sessionID, messageID: info.id }, 'part'),
  )
  const { db } = context
  await write(context, [db.sessions, db.messages, db.parts], async (announce) => {
    const current = await db.sessions.get(input.sessionID)
    if (!current) throw new NotFoundError('session', input.sessionID)
    await db.messages.add(info)
    await db.parts.bulkAdd(parts)
    const touched = {
      ...current,
      agent: info.agent,
      model: { providerID: input.model.providerID, modelID: input.model.modelID },
      time: { ...current.time, updated: Math.max(now, current.time.updated) },
    }
    await db.sessions.put(touched)
    announce({ type: 'message.updated', info })
    for (const part of parts) announce({ type: 'part.updated', part })
    announce({ type: 'session.updated', info: touched })
  })
  return { info, parts }
}

/** Keeps a prompt for later (the `queue` delivery mode): it becomes a message when the running turn ends. */
export async function enqueuePrompt(context: StoreContext, input: Omit<UserPromptInput, 'model'> & { model?: ModelReference }): Promise<InboxEntry> {
  checkPromptParts(input.parts)
  const now = context.now()
  const entry = parseWith(
    InboxEntrySchema,
    {
      id: ascending('input', now),
      sessionID: input.sessionID,
      parts: input.parts,
      time: { created: now },
      ...(input.agent ? { agent: input.agent } : {}),
      ...(input.model ? { model: input.model } : {}),
    },
    'queued prompt',
  )
  const { db } = context
  await write(context, [db.sessions, db.inbox], async (announce) => {
    if (!(await db.sessions.get(input.sessionID))) throw new NotFoundError('session', input.sessionID)
    await db.inbox.add(entry)
    announce({ type: 'inbox.updated', sessionID: input.sessionID, entries: await queuedPrompts(context, input.sessionID) })
  })
  return entry
}

/** The oldest queued prompt of a session, removed from the inbox; undefined when there is none. */
export async function takeQueuedPrompt(context: StoreContext, sessionID: string): Promise<InboxEntry | undefined> {
  const { db } = context
  return write(context, [db.inbox], async (announce) => {
    const [first, ...rest] = await queuedPrompts(context, sessionID)
    if (!first) return undefined
    await db.inbox.delete(first.id)
    announce({ type: 'inbox.updated', sessionID, entries: rest })
    return first
  })
}

/** A session's queued prompts, oldest (next to run) first. */
export function queuedPrompts(context: StoreContext, sessionID: string): Promise<InboxEntry[]> {
  return context.db.inbox.where('sessionID').equals(sessionID).sortBy('id')
}

/**
 * Replaces a queued prompt's parts; it keeps its id, so its place in the queue. A prompt the loop already took is
 * a NotFoundError: it is a message now, and editing it would change nothing the model sees.
 */
export async function editQueuedPrompt(context: StoreContext, inputID: string, parts: PromptPartInput[]): Promise<InboxEntry> {
  checkPromptParts(parts)
  const { db } = context
  return write(context, [db.inbox], async (announce) => {
    const current = await db.inbox.get(inputID)
    if (!current) throw new NotFoundError('queued prompt', inputID)
    const entry = parseWith(InboxEntrySchema, { ...current, parts }, 'queued prompt')
    await db.inbox.put(entry)
    announce({ type: 'inbox.updated', sessionID: entry.sessionID, entries: await queuedPrompts(context, current.sessionID) })
    return entry
  })
}

/** Takes a prompt off the queue; false when it was no longer there (it ran already, or another tab removed it). */
export async function removeQueuedPrompt(context: StoreContext, inputID: string): Promise<boolean> {
  const { db } = context
  return write(context, [db.inbox], async (announce) => {
    const current = await db.inbox.get(inputID)
    if (!current) return false
    await db.inbox.delete(inputID)
    announce({ type: 'inbox.updated', sessionID: current.sessionID, entries: await queuedPrompts(context, current.sessionID) })
    return true
  })
}
