import type { PermissionRule, SessionInfo } from '../schema'

export interface CreateSessionInput {
  projectID: string
  parentID?: string
  title?: string
  directory?: string
  /** The session's own rules (a subagent's child session: what it may not do). */
  permission?: PermissionRule[]
}

export interface ListSessionsInput {
  projectID?: string
  /** Only sessions without a parent (the sidebar's top level). Default true. */
  roots?: boolean
  /** Include archived sessions. Default false. */
  archived?: boolean
  /** Case-insensitive substring of the title. */
  search?: string
  limit?: number
  cursor?: string
}

export interface SessionPage {
  items: SessionInfo[]
  nextCursor?: string
}
