import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserModelMessage } from 'ai'
import type { MessageWithParts } from './message-store'
import type { ModelReference, Part } from './schema'

export const INTERRUPTED_TOOL_TEXT = '[Tool execution was interrupted]'
export const CLEARED_TOOL_TEXT = '[Old tool result content cleared]'
export const COMPACTION_QUESTION = 'What did we do so far?'
export const SUBTASK_TEXT = 'The following tool was executed by the user'

type UserContent = Exclude<UserModelMessage['content'], string>
type AssistantContent = Exclude<AssistantModelMessage['content'], string>

/** Files whose content already reached the model as synthetic text. */
const INLINED_MIMES = new Set(['text/plain', 'application/x-directory'])

/** How the summariser's input differs from a normal request (§6.3.6). */
export interface ConversionOptions {
  /** Files and images become a note naming them: a summary needs to know they were there, not their bytes. */
  stripMedia?: boolean
  /** Longer tool outputs are cut to this many characters, with a note saying how much was left out. */
  toolOutputMaxChars?: number
}

/** The note a file or image becomes when media are stripped. */
export const attachedNote = (mime: string, filename?: string) => `[Attached ${mime}: ${filename || 'file'}]`

export const truncatedNote = (omitted: number) => `\n[Tool output truncated for compaction: omitted ${omitted} chars]`

function userMessage(parts: Part[], options: ConversionOptions): UserModelMessage | undefined {
  const content: UserContent = []
  for (const part of parts) {
    if (part.type === 'text') {
      if (!part.ignored && part.text.length > 0) content.push({ type: 'text', text: part.text })
    } else if (part.type === 'file') {
      if (INLINED_MIMES.has(part.mime)) continue
      if (options.stripMedia) content.push({ type: 'text', text: attachedNote(part.mime, part.filename) })
      else if (part.mime.startsWith('image/')) content.push({ type: 'image', image: part.url, mediaType: part.mime })
      else content.push({ type: 'file', data: part.url, mediaType: part.mime, ...(part.filename ? { filename: part.filename } : {}) })
    } else if (part.type === 'compaction') {
      content.push({ type: 'text', text: COMPACTION_QUESTION })
    } else if (part.type === 'subtask') {
      content.push({ type: 'text', text: SUBTASK_TEXT })
    }
  }
  return content.length ? { role: 'user', content } : undefined
}

function hasReplyContent(parts: Part[]): boolean {
  return parts.some((part) => part.type !== 'step-start' && part.type !== 'reasoning' && part.type !== 'step-finish')
}

function truncate(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text
  return text.slice(0, max) + truncatedNote(text.length - max)
}

function toolOutput(part: Extract<Part, { type: 'tool' }>, options: ConversionOptions): { type: 'text' | 'error-text'; value: string } {
  const state = part.state
  switch (state.status) {
    case 'completed':
      return { type: 'text', value: state.time.compacted ? CLEARED_TOOL_TEXT : truncate(state.output, options.toolOutputMaxChars) }
    case 'error': {
      const partial = state.metadata?.output
      if (state.metadata?.interrupted && typeof partial === 'string') return { type: 'text', value: truncate(partial, options.toolOutputMaxChars) }
      return { type: 'error-text', value: state.error }
    }
    default:
      // Every tool call needs a result (Anthropic rejects a tool_use without one).
      return { type: 'error-text', value: INTERRUPTED_TOOL_TEXT }
  }
}

function assistantMessages(entry: MessageWithParts, sameModel: boolean, options: ConversionOptions): ModelMessage[] {
  const content: AssistantContent = []
  const results: ToolModelMessage['content'] = []
  for (const part of entry.parts) {
    if (part.type === 'text') {
      if (part.text.length > 0) {
        content.push({ type: 'text', text: part.text, ...(sameModel && part.metadata ? { providerOptions: part.metadata as never } : {}) })
      }
    } else if (part.type === 'reasoning') {
      if (part.text.length === 0) continue
      // Another model cannot verify this model's reasoning signatures; it reads the thoughts as plain text.
      if (sameModel) content.push({ type: 'reasoning', text: part.text, ...(part.metadata ? { providerOptions: part.metadata as never } : {}) })
      else content.push({ type: 'text', text: part.text })
    } else if (part.type === 'tool') {
      content.push({ type: 'tool-call', toolCallId: part.callID, toolName: part.tool, input: part.state.input })
      results.push({ type: 'tool-result', toolCallId: part.callID, toolName: part.tool, output: toolOutput(part, options) })
    }
  }
  const messages: ModelMessage[] = []
  if (content.length) messages.push({ role: 'assistant', content })
  if (results.length) messages.push({ role: 'tool', content: results })
  return messages
}

/**
 * Stored history → the messages of the next request, following opencode's rules: failed replies are left out
 * unless they were cancelled after saying something; unfinished tool calls get an "interrupted" result; pruned
 * outputs are replaced by a short note; ignored text never goes; reasoning from another model becomes text.
 */
export function toModelMessages(history: MessageWithParts[], current: ModelReference, options: ConversionOptions = {}): ModelMessage[] {
  const messages: ModelMessage[] = []
  for (const entry of history) {
    if (entry.parts.length === 0) continue
    const info = entry.info
    if (info.role === 'user') {
      const message = userMessage(entry.parts, options)
      if (message) messages.push(message)
      continue
    }
    if (info.error && !(info.error.name === 'MessageAbortedError' && hasReplyContent(entry.parts))) continue
    const sameModel = info.providerID === current.providerID && info.modelID === current.modelID
    messages.push(...assistantMessages(entry, sameModel, options))
  }
  return messages
}
