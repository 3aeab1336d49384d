import type { MessageWithParts } from '../store/message-store'
import type { SessionInfo } from '../core/schema'

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

/**
 * The references an import relies on, checked before anything is written: every message id and part id appears
 * once in the whole tree (the importer maps each to one new id, so a repeat would collide in storage), and every
 * reply answers a prompt (its `parentID` is a message of its session, or a user message comes before it).
 * Returns the first problem in words, or undefined.
 */
export function transcriptProblem(transcript: SessionTranscript): string | undefined {
  const messages = new Set<string>()
  const parts = new Set<string>()
  const visit = (node: SessionTranscript): string | undefined => {
    const own = new Set(node.messages.map((message) => message.info.id))
    let prompted = false
    for (const message of node.messages) {
      const { info } = message
      if (messages.has(info.id)) return `message ${info.id} appears twice`
      messages.add(info.id)
      if (info.role === 'user') prompted = true
      else if (!own.has(info.parentID) && !prompted) return `reply ${info.id} answers no prompt (its parent ${info.parentID} is not in the session)`
      for (const part of message.parts) {
        if (parts.has(part.id)) return `part ${part.id} appears twice`
        parts.add(part.id)
      }
    }
    for (const child of node.children ?? []) {
      const problem = visit(child)
      if (problem) return problem
    }
    return undefined
  }
  return visit(transcript)
}
