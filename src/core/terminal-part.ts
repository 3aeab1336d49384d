import type { Part } from './schema'

/**
 * Whether a part has ended and will not change as a stream goes on: what sync may send (issue 31, docs/sync.md).
 * Text and reasoning end when the writer stamps `time.end`; a tool call when its state is `completed` or `error`. A
 * text part without `time` was written whole (a user's prompt, a synthetic note). Every other part type is written
 * once, whole.
 */
export function isTerminalPart(part: Part): boolean {
  switch (part.type) {
    case 'text':
      return part.time === undefined || part.time.end !== undefined
    case 'reasoning':
      return part.time.end !== undefined
    case 'tool':
      return part.state.status === 'completed' || part.state.status === 'error'
    default:
      return true
  }
}
