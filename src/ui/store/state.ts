import type { SessionStatus } from '../../core/event'
import type { InboxEntry, Message, MessageError, Part, PermissionAsk, SessionInfo, Todo } from '../../core/schema'

/**
 * The UI's normalized copy of committed state. Only sessions the UI has listed or opened are here; messages and
 * parts only for sessions whose history was loaded (`messages[sessionID]` exists), so events for other sessions
 * cost nothing.
 */
export interface UiState {
  sessions: Record<string, SessionInfo>
  /** Per loaded session: its messages, ascending by id (creation order). */
  messages: Record<string, Message[]>
  /** Per message: its parts, ascending by id. */
  parts: Record<string, Part[]>
  status: Record<string, SessionStatus>
  /** The last error reported for a session, until the user dismisses it. */
  errors: Record<string, MessageError>
  /** Per session: its todo list as the model last wrote it. */
  todos: Record<string, Todo[]>
  /** Per session: its queued prompts, next to run first (loaded when it opens, then kept by events). */
  queued: Record<string, InboxEntry[]>
  /** Subagent sessions by parent id, oldest first (loaded with their parent's row, then kept by events). */
  children: Record<string, string[]>
  /** Permission questions waiting for an answer, by ask id. */
  asks: Record<string, PermissionAsk>
}

export const emptyState = (): UiState => ({ sessions: {}, messages: {}, parts: {}, status: {}, errors: {}, todos: {}, queued: {}, asks: {}, children: {} })
