import type { CreateSessionInput, ListSessionsInput, SessionPage } from '../dto/sessions'
import type { SearchHit } from '../dto/search'
import type { MessagePage, MessagePageInput } from '../dto/messages'
import type { InboxEntry, SessionInfo, Todo } from '../schema'
import type { ForkFamily } from './history'

export type { SearchHit }

/** The session list, and what showing one session needs: all of it read from the store, none of it runs a turn. */
export interface SessionsApi {
  listSessions(input: ListSessionsInput): SessionPage
  getSession(sessionID: string): SessionInfo
  createSession(input: Omit<CreateSessionInput, 'projectID'> & { projectID?: string }): SessionInfo
  renameSession(sessionID: string, title: string): SessionInfo
  archiveSession(sessionID: string, archived: boolean): SessionInfo
  removeSession(sessionID: string): { removed: string[] }
  children(sessionID: string): SessionInfo[]
  /** Full-text search over titles and message text of the current project (or every project), newest first. */
  searchSessions(input: { query: string; limit?: number; allProjects?: boolean }): SearchHit[]
  /** Called when a session is opened: repairs a turn whose runner died, unless a live runner holds it. */
  openSession(sessionID: string): { repaired: boolean }
  pageMessages(input: MessagePageInput): MessagePage
  todos(sessionID: string): Todo[]
  /** An attachment's bytes by its blob hash (a `tabcode-blob:` URL's), for its preview; null when not stored. */
  readAttachment(hash: string): Uint8Array | null
  /** The session's queued prompts, next to run first. */
  queuedPrompts(sessionID: string): InboxEntry[]
  forks(sessionID: string): ForkFamily
}
