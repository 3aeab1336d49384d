import type { StoreContext } from './context'
import { NotFoundError, parseWith } from '../core/errors'
import { findSession } from './session-store'
import {
  MessageSchema,
  PartSchema,
  ProjectSchema,
  SessionInfoSchema,
  ToolOutputSchema,
  WorkspaceEntrySchema,
  type Message,
  type Part,
  type Project,
  type SessionInfo,
  type ToolOutput,
  type WorkspaceEntry,
} from '../core/schema'
import { write } from './transaction'

/** Everything a fork adds: its session with the copied history and outputs, and, when its files differ, a project. */
export interface ForkRows {
  /** A project of the fork's own, with its file rows (contents are blobs already stored). */
  project?: { project: Project; files: WorkspaceEntry[] }
  session: SessionInfo
  messages: Message[]
  parts: Part[]
  outputs: ToolOutput[]
}

/**
 * Writes a fork in one transaction: all of it or nothing. Every row is validated first, so an invalid one fails
 * before anything is written; `add`, not `put`, so an id collision fails the fork rather than overwriting a row.
 * Every tab then hears of the new session.
 */
export async function addFork(context: StoreContext, input: ForkRows): Promise<ForkRows> {
  const project = input.project && {
    project: parseWith(ProjectSchema, input.project.project, 'project'),
    files: input.project.files.map((file) => parseWith(WorkspaceEntrySchema, file, 'workspace entry')),
  }
  const rows: ForkRows = {
    ...(project ? { project } : {}),
    session: parseWith(SessionInfoSchema, input.session, 'session'),
    messages: input.messages.map((message) => parseWith(MessageSchema, message, 'message')),
    parts: input.parts.map((part) => parseWith(PartSchema, part, 'part')),
    outputs: input.outputs.map((output) => parseWith(ToolOutputSchema, output, 'tool output')),
  }
  const { db } = context
  await write(context, [db.projects, db.files, db.sessions, db.messages, db.parts, db.outputs], async (announce) => {
    if (rows.project) {
      await db.projects.add(rows.project.project)
      await db.files.bulkAdd(rows.project.files)
    }
    await db.sessions.add(rows.session)
    await db.messages.bulkAdd(rows.messages)
    await db.parts.bulkAdd(rows.parts)
    await db.outputs.bulkAdd(rows.outputs)
    announce({ type: 'session.created', info: rows.session })
  })
  return rows
}

/** The sessions forked from `sessionID`, in no particular order. */
export function forksOf(context: StoreContext, sessionID: string): Promise<SessionInfo[]> {
  return context.db.sessions.where('fork.sessionID').equals(sessionID).toArray()
}

/** The session a session was forked from (if it still exists) and the forks made of it, oldest first. */
export async function forkFamily(context: StoreContext, sessionID: string): Promise<{ origin?: SessionInfo; forks: SessionInfo[] }> {
  const session = await findSession(context, sessionID)
  if (!session) throw new NotFoundError('session', sessionID)
  const origin = session.fork ? await findSession(context, session.fork.sessionID) : undefined
  const forks = await forksOf(context, sessionID)
  // Session ids descend with time, so among equal creation times the larger id is the older one.
  forks.sort((a, b) => a.time.created - b.time.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return { ...(origin ? { origin } : {}), forks }
}
