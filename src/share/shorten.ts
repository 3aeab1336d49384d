import type { Part } from '../core/schema'
import { DEFAULT_TOOL_OUTPUT_CHARS } from './limits'
import type { SessionTranscript } from './transcript'

/** The text cut to `limit` characters with a note of how much was left out, so a reader knows it is not whole. */
export function shortenText(text: string, limit: number): string {
  if (text.length <= limit) return text
  return `${text.slice(0, limit)}… [${(text.length - limit).toLocaleString('en-US')} more characters not shared]`
}

function shortenRecord(record: Record<string, unknown>, limit: number, cut: { count: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'string' && value.length > limit) {
      out[key] = shortenText(value, limit)
      cut.count += 1
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = shortenRecord(value as Record<string, unknown>, limit, cut)
    } else if (Array.isArray(value) && JSON.stringify(value).length > limit) {
      // Lists in tool metadata (matches, file lists, diagnostics) are bulk, not narrative.
      out[key] = []
      cut.count += 1
    } else {
      out[key] = value
    }
  }
  return out
}

function shortenPart(part: Part, limit: number, cut: { count: number }): Part {
  if (part.type !== 'tool') return part
  const state = part.state
  switch (state.status) {
    case 'completed': {
      const { attachments, ...rest } = state
      if (attachments?.length) cut.count += 1
      if (state.output.length > limit) cut.count += 1
      return {
        ...part,
        state: { ...rest, output: shortenText(state.output, limit), metadata: shortenRecord(state.metadata, limit, cut) },
      }
    }
    case 'error': {
      if (state.error.length > limit) cut.count += 1
      return {
        ...part,
        state: {
          ...state,
          error: shortenText(state.error, limit),
          ...(state.metadata ? { metadata: shortenRecord(state.metadata, limit, cut) } : {}),
        },
      }
    }
    case 'running':
      return state.metadata ? { ...part, state: { ...state, metadata: shortenRecord(state.metadata, limit, cut) } } : part
    case 'pending':
      return part
  }
}

/**
 * Tool outputs (and the bulk a tool keeps in its metadata: diffs, previews, listings, attachments) cut to `limit`
 * characters: in a link they are most of the size and the least of the story. Returns how many values were cut.
 */
export function shortenToolOutputs(
  transcript: SessionTranscript,
  limit = DEFAULT_TOOL_OUTPUT_CHARS,
): { transcript: SessionTranscript; shortened: number } {
  const cut = { count: 0 }
  const visit = (node: SessionTranscript): SessionTranscript => ({
    ...node,
    messages: node.messages.map((message) => ({ ...message, parts: message.parts.map((part) => shortenPart(part, limit, cut)) })),
    ...(node.children ? { children: node.children.map(visit) } : {}),
  })
  const shortened = visit(transcript)
  return { transcript: shortened, shortened: cut.count }
}
