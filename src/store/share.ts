import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { NotFoundError } from '../core/errors'
import type { Blob, Message, Part, Project, SessionInfo } from '../core/schema'
import { putBlobs } from './blobs'
import type { MessageWithParts } from './message-store'
import { addProjectRows, type ProjectRows } from './project-rows'
import { children, messagesOf } from './session-store'
import { read, write, type Announce } from './transaction'

/** The rows exports read and imports write (share/ owns the formats; these only move rows). */

/** A session with its messages and parts (oldest first, parts in id order) and its children, as stored. */
export interface StoredSessionTree {
  info: SessionInfo
  messages: MessageWithParts[]
  children?: StoredSessionTree[]
}

export async function loadSessionTree(context: Pick<StoreContext, 'db'>, sessionID: string): Promise<StoredSessionTree> {
  const { db } = context
  const store = context as StoreContext
  return read(context, [db.sessions, db.messages, db.parts], async () => {
    const load = async (info: SessionInfo, depth: number): Promise<StoredSessionTree> => {
      const messages = await messagesOf(store, info.id).toArray()
      const parts = await db.parts.where('sessionID').equals(info.id).sortBy('id')
      const byMessage = new Map<string, Part[]>()
      for (const part of parts) {
        const list = byMessage.get(part.messageID)
        if (list) list.push(part)
        else byMessage.set(part.messageID, [part])
      }
      const withParts: MessageWithParts[] = messages.map((message) => ({ info: message, parts: byMessage.get(message.id) ?? [] }))
      // A cycle cannot be stored through the app, but a damaged database must not hang the export.
      const kids = depth < 64 ? await children(store, info.id) : []
      const loaded = await Promise.all(kids.map((child) => load(child, depth + 1)))
      return { info, messages: withParts, ...(loaded.length ? { children: loaded } : {}) }
    }
    const root = await db.sessions.get(sessionID)
    if (!root) throw new NotFoundError('session', sessionID)
    return load(root, 0)
  })
}

/** Every project, session, message and part, read in one transaction (what a backup holds). */
export async function readBackupRows(context: Pick<StoreContext, 'db'>) {
  const { db } = context
  return read(context, [db.projects, db.sessions, db.messages, db.parts], async () => ({
    projects: await db.projects.toArray(),
    sessions: await db.sessions.toArray(),
    messages: await db.messages.toArray(),
    parts: await db.parts.toArray(),
  }))
}

/** The first root session (no parent) that `matches`. A scan, not an index: it reads only the session rows. */
export function findRootSession(context: Pick<StoreContext, 'db'>, matches: (session: SessionInfo) => boolean): Promise<SessionInfo | undefined> {
  return context.db.sessions.filter((session) => !session.parentID && matches(session)).first()
}

export interface ImportedRows {
  projects?: Project[]
  sessions: SessionInfo[]
  messages: Message[]
  parts: Part[]
}

/** What an import may read and write inside its one transaction. */
export interface ImportTransaction {
  projectExists(projectID: string): Promise<boolean>
  /** Every stored session, one at a time (to collect import stamps). */
  eachSession(visit: (session: SessionInfo) => void): Promise<void>
  /** Which of `ids` are stored sessions. */
  presentSessions(ids: readonly string[]): Promise<Set<string>>
  findRootSession(matches: (session: SessionInfo) => boolean): Promise<SessionInfo | undefined>
  /** A new project with its files and blobs (the transaction must have been opened `withFiles`). */
  addProject(rows: ProjectRows): Promise<void>
  /** `add`, not `put`: a collision fails the whole import rather than overwrite a row. Every tab hears of each session once the import commits. */
  addRows(rows: ImportedRows): Promise<void>
  /** Attachments' bytes; content-addressed, so one stored already is left as it is (opened `withBlobs`). */
  addBlobs(blobs: readonly Blob[]): Promise<void>
}

/**
 * Runs `work` in one read-write transaction over projects, sessions, messages and parts (and files and blobs
 * `withFiles`): an import is all or nothing, so a failure or a killed tab leaves none of it.
 */
export function importTransaction<T>(
  context: Pick<StoreContext, 'db' | 'emit'>,
  options: { withFiles?: boolean; withBlobs?: boolean },
  work: (transaction: ImportTransaction) => Promise<T>,
): Promise<T> {
  const { db } = context
  const stores = [db.projects, db.sessions, db.messages, db.parts, ...(options.withFiles ? [db.files, db.blobs] : options.withBlobs ? [db.blobs] : [])]
  return write(context, stores, (announce) => work(importRows(db, announce)))
}

function importRows(db: TabcodeDatabase, announce: Announce): ImportTransaction {
  return {
    projectExists: async (projectID) => (await db.projects.get(projectID)) !== undefined,
    eachSession: async (visit) => {
      await db.sessions.each(visit)
    },
    presentSessions: async (ids) => new Set((await db.sessions.bulkGet([...ids])).flatMap((row) => (row ? [row.id] : []))),
    findRootSession: (matches) => findRootSession({ db }, matches),
    addProject: (rows) => addProjectRows(db, rows),
    addRows: async (rows) => {
      if (rows.projects) await db.projects.bulkAdd(rows.projects)
      await db.sessions.bulkAdd(rows.sessions)
      await db.messages.bulkAdd(rows.messages)
      await db.parts.bulkAdd(rows.parts)
      for (const info of rows.sessions) announce({ type: 'session.created', info })
    },
    addBlobs: (blobs) => putBlobs({ db }, blobs),
  }
}
