import type { MessageWithParts } from '../session/message-store'
import type { SessionInfo } from '../session/schema'

/**
 * One session as a self-contained tree: its row, its messages with their parts (oldest first), and its child
 * sessions in the same shape. Every export, share link and foreign-format converter produces this; the importer
 * consumes it and gives every row a new id.
 */
export interface SessionTranscript {
  info: SessionInfo
  messages: MessageWithParts[]
  children?: SessionTranscript[]
}
