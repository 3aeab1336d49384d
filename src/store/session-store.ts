import { KEY } from './database'
import type { StoreContext } from './context'
import { decodeCursor, encodeCursor, TimeCursorSchema } from '../core/cursor'
import { InputError, NotFoundError, parseWith } from '../core/errors'
import { descending } from '../core/id'
import { emptyTokens, SessionInfoSchema, type Part, type SessionInfo, type Tokens } from '../core/schema'
import { createSlug } from '../core/slug'
import type { CreateSessionInput, ListSessionsInput, SessionPage } from '../core/dto/sessions'
import { defaultTitle } from '../core/title'
import { write } from './transaction'

export type { CreateSessionInput, ListSessionsInput, SessionPage }

export const DEFAULT_DIRECTORY = '/workspace'
export const MAX_TITLE_LENGTH = 200

export async function createSession(context: StoreContext, input: CreateSessionInput): Promise<SessionInfo> {
  const now = context.now()
  return write(context, [context.db.sessions], async (announce) => {
    let projectID = input.projectID
    let directory = input.directory ?? DEFAULT_DIRECTORY
    if (input.parentID) {
      const parent = await context.db.sessions.get(input.parentID)
      if (!parent) throw new NotFoundError('session', input.parentID)
      // A child works in its parent's project and directory.
      projectID = parent.projectID
      directory = parent.directory
    }
    const candidate: SessionInfo = {
      id: descending('session', now),
      slug: createSlug(),
      projectID,
      directory,
      ...(input.parentID ? { parentID: input.parentID } : {}),
      ...(input.permission ? { permission: input.permission } : {}),
      title: input.title?.trim() ? normalizeTitle(input.title) : defaultTitle({ child: !!input.parentID, now }),
      version: context.version,
      cost: 0,
      tokens: emptyTokens(),
      time: { created: now, updated: now },
    }
    const valid = parseWith(SessionInfoSchema, candidate, 'session')
    await context.db.sessions.add(valid)
    announce({ type: 'session.created', info: valid })
    return valid
  })
}

export async function getSession(context: StoreContext, sessionID: string): Promise<SessionInfo> {
  const info = await context.db.sessions.get(sessionID)
  if (!info) throw new NotFoundError('session', sessionID)
  return info
}

/** A session as stored, if it is. */
export function findSession(context: StoreContext, sessionID: string): Promise<SessionInfo | undefined> {
  return context.db.sessions.get(sessionID)
}

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 500

/** Newest first by last update, paged with an opaque cursor; reads only as many rows as the page needs. */
export async function listSessions(context: StoreContext, input: ListSessionsInput = {}): Promise<SessionPage> {
  const limit = clampLimit(input.limit)
  const roots = input.roots ?? true
  const search = input.search?.trim().toLocaleLowerCase()
  const after = input.cursor ? decodeCursor(input.cursor, TimeCursorSchema) : undefined
  const upper = after ? [after.time, after.id] : [KEY.timeMax, KEY.idMax]
  const range = input.projectID
    ? context.db.sessions
        .where('[projectID+time.updated+id]')
        .between([input.projectID, KEY.timeMin, KEY.idMin], [input.projectID, ...upper], true, !after)
    : context.db.sessions.where('[time.updated+id]').between([KEY.timeMin, KEY.idMin], upper, true, !after)
  const rows = await range
    .reverse()
    .filter((session) => {
      if (roots && session.parentID) return false
      if (!input.archived && session.time.archived !== undefined) return false
      if (search && !session.title.toLocaleLowerCase().includes(search)) return false
      return true
    })
    .limit(limit + 1)
    .toArray()
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return {
    items,
    ...(rows.length > limit && last ? { nextCursor: encodeCursor({ id: last.id, time: last.time.updated }) } : {}),
  }
}

export interface UpdateOptions {
  /** Move the session to the top of the list. Default true. */
  touch?: boolean
}

/** Applies an editor to a copy of the session inside one transaction; the result is validated before it is stored. */
export async function updateSession(
  context: StoreContext,
  sessionID: string,
  editor: (draft: SessionInfo) => void,
  options: UpdateOptions = {},
): Promise<SessionInfo> {
  return write(context, [context.db.sessions], async (announce) => {
    const current = await context.db.sessions.get(sessionID)
    if (!current) throw new NotFoundError('session', sessionID)
    const draft = structuredClone(current)
    editor(draft)
    draft.id = current.id
    if (options.touch ?? true) draft.time.updated = Math.max(context.now(), current.time.updated)
    const valid = parseWith(SessionInfoSchema, draft, 'session')
    await context.db.sessions.put(valid)
    announce({ type: 'session.updated', info: valid })
    return valid
  })
}

export const touchSession = (context: StoreContext, sessionID: string) => updateSession(context, sessionID, () => {})

function normalizeTitle(title: string): string {
  const single = title.replace(/\s+/g, ' ').trim()
  return single.length > MAX_TITLE_LENGTH ? single.slice(0, MAX_TITLE_LENGTH - 1) + '…' : single
}

export function setTitle(context: StoreContext, sessionID: string, title: string): Promise<SessionInfo> {
  const clean = normalizeTitle(title)
  if (!clean) return Promise.reject(new InputError('title', 'A session title cannot be empty'))
  return updateSession(context, sessionID, (draft) => {
    draft.title = clean
  })
}

export function setArchived(context: StoreContext, sessionID: string, archived: boolean): Promise<SessionInfo> {
  const now = context.now()
  // Archiving should not bump the session to the top of the list it is leaving.
  return updateSession(
    context,
    sessionID,
    (draft) => {
      if (archived) draft.time.archived = now
      else delete draft.time.archived
    },
    { touch: false },
  )
}

export function children(context: StoreContext, sessionID: string): Promise<SessionInfo[]> {
  return context.db.sessions.where('parentID').equals(sessionID).sortBy('id')
}

/** Removes a session, its descendants, and everything stored for them (messages, parts, todos, outputs, queued prompts) in one transaction. */
export async function removeSession(context: StoreContext, sessionID: string): Promise<SessionInfo[]> {
  const { db } = context
  return write(context, [db.sessions, db.messages, db.parts, db.todos, db.outputs, db.inbox], async (announce) => {
    const root = await db.sessions.get(sessionID)
    if (!root) throw new NotFoundError('session', sessionID)
    const all: SessionInfo[] = [root]
    for (let index = 0; index < all.length; index++) {
      all.push(...(await db.sessions.where('parentID').equals(all[index]!.id).toArray()))
    }
    const ids = all.map((session) => session.id)
    await db.parts.where('sessionID').anyOf(ids).delete()
    await db.outputs.where('sessionID').anyOf(ids).delete()
    await db.inbox.where('sessionID').anyOf(ids).delete()
    await db.todos.bulkDelete(ids)
    for (const id of ids) await messagesOf(context, id).delete()
    await db.sessions.bulkDelete(ids)
    // Children first, so listeners never see a child whose parent is already gone.
    const removed = all.reverse()
    for (const info of removed) announce({ type: 'session.deleted', info })
    return removed
  })
}

/** All messages of one session, oldest first, as a Dexie collection over the paging index. */
export function messagesOf(context: StoreContext, sessionID: string) {
  return context.db.messages
    .where('[sessionID+time.created+id]')
    .between([sessionID, KEY.timeMin, KEY.idMin], [sessionID, KEY.timeMax, KEY.idMax])
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE
  if (!Number.isInteger(limit) || limit < 1) throw new InputError('limit', 'The page size must be a positive integer')
  return Math.min(limit, MAX_PAGE_SIZE)
}

export interface Usage {
  cost: number
  tokens: Tokens
}

/** What the step-finish parts among `parts` cost: a session's totals are the sum over all of its own. */
export function usageOfParts(parts: readonly Part[]): Usage {
  const total: Usage = { cost: 0, tokens: emptyTokens() }
  for (const part of parts) {
    if (part.type !== 'step-finish') continue
    total.cost += part.cost
    total.tokens.input += part.tokens.input
    total.tokens.output += part.tokens.output
    total.tokens.reasoning += part.tokens.reasoning
    total.tokens.cache.read += part.tokens.cache.read
    total.tokens.cache.write += part.tokens.cache.write
  }
  return total
}

/** The session's totals with `usage` added (`sign` 1) or taken away (-1); never below zero, free of float dust. */
export function moveTotals(session: SessionInfo, usage: Usage, sign: 1 | -1): Pick<SessionInfo, 'cost' | 'tokens'> {
  const clean = (value: number) => Math.max(0, Number(value.toFixed(10)))
  const tokens = session.tokens ?? emptyTokens()
  return {
    cost: clean((session.cost ?? 0) + sign * usage.cost),
    tokens: {
      input: clean(tokens.input + sign * usage.tokens.input),
      output: clean(tokens.output + sign * usage.tokens.output),
      reasoning: clean(tokens.reasoning + sign * usage.tokens.reasoning),
      cache: {
        read: clean(tokens.cache.read + sign * usage.tokens.cache.read),
        write: clean(tokens.cache.write + sign * usage.tokens.cache.write),
      },
    },
  }
}
