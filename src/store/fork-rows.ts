import type { StoreContext } from './context'
import { parseWith } from '../core/errors'
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
  await db.transaction('rw', [db.projects, db.files, db.sessions, db.messages, db.parts, db.outputs], async () => {
    if (rows.project) {
      await db.projects.add(rows.project.project)
      await db.files.bulkAdd(rows.project.files)
    }
    await db.sessions.add(rows.session)
    await db.messages.bulkAdd(rows.messages)
    await db.parts.bulkAdd(rows.parts)
    await db.outputs.bulkAdd(rows.outputs)
  })
  return rows
}

/** The sessions forked from `sessionID`, in no particular order. */
export function forksOf(context: StoreContext, sessionID: string): Promise<SessionInfo[]> {
  return context.db.sessions.where('fork.sessionID').equals(sessionID).toArray()
}
