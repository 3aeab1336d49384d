import type { Message, Part } from '../schema'

/** A message with its parts: the unit of history everywhere (store, runtime, core rules, UI). */
export interface MessageWithParts {
  info: Message
  parts: Part[]
}

export interface MessagePageInput {
  sessionID: string
  limit?: number
  /** Cursor from a previous page: return only messages strictly older than it. */
  before?: string
}

export interface MessagePage {
  /** Oldest first, ready to render. */
  messages: MessageWithParts[]
  /** Present when older messages exist. */
  nextCursor?: string
}
