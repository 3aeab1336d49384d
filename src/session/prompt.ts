import type { StoreContext } from './context'
import { InputError, NotFoundError, parseWith } from './errors'
import { ascending } from './id'
import { InboxEntrySchema, PartSchema, UserMessageSchema, type InboxEntry, type ModelReference, type Part, type PromptPartInput, type UserMessage } from './schema'

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
  const session = await db.transaction('rw', db.sessions, db.messages, db.parts, async () => {
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
    return touched
  })
  context.emit({ type: 'message.updated', info })
  for (const part of parts) context.emit({ type: 'part.updated', part })
  context.emit({ type: 'session.updated', info: session })
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
  if (!(await context.db.sessions.get(input.sessionID))) throw new NotFoundError('session', input.sessionID)
  await context.db.inbox.add(entry)
  return entry
}

/** The oldest queued prompt of a session, removed from the inbox; undefined when there is none. */
export async function takeQueuedPrompt(context: StoreContext, sessionID: string): Promise<InboxEntry | undefined> {
  const { db } = context
  return db.transaction('rw', db.inbox, async () => {
    const entries = await db.inbox.where('sessionID').equals(sessionID).sortBy('id')
    const first = entries[0]
    if (first) await db.inbox.delete(first.id)
    return first
  })
}

export function queuedPrompts(context: StoreContext, sessionID: string): Promise<InboxEntry[]> {
  return context.db.inbox.where('sessionID').equals(sessionID).sortBy('id')
}
