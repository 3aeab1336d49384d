import { ImportInvalidError, ImportTooLargeError } from './errors'
import { IMPORT_LIMITS } from './limits'
import type { SessionTranscript } from './transcript'

/**
 * Walks parsed JSON once, without recursion, before any schema sees it: a hostile document cannot blow the stack
 * through deep nesting or hide one enormous string. Schema validation then runs over a bounded value.
 */
export function checkJsonShape(value: unknown, limits = IMPORT_LIMITS): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
  while (stack.length) {
    const { value: current, depth } = stack.pop()!
    if (typeof current === 'string') {
      if (current.length > limits.stringChars) throw new ImportTooLargeError('a single text (characters)', limits.stringChars)
      continue
    }
    if (current === null || typeof current !== 'object') continue
    if (depth >= limits.jsonDepth) throw new ImportInvalidError(`values nested deeper than ${limits.jsonDepth} levels`)
    if (Array.isArray(current)) {
      for (const item of current) stack.push({ value: item, depth: depth + 1 })
    } else {
      for (const key of Object.keys(current)) {
        if (key.length > limits.stringChars) throw new ImportTooLargeError('a single text (characters)', limits.stringChars)
        stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 })
      }
    }
  }
}

export interface TranscriptCounts {
  sessions: number
  messages: number
  parts: number
}

/** Counts the rows of a transcript tree and holds them to the import caps. */
export function checkTranscriptCounts(transcript: SessionTranscript, limits = IMPORT_LIMITS): TranscriptCounts {
  const counts = { sessions: 0, messages: 0, parts: 0 }
  const stack: { node: SessionTranscript; depth: number }[] = [{ node: transcript, depth: 0 }]
  while (stack.length) {
    const { node, depth } = stack.pop()!
    if (depth > limits.childDepth) throw new ImportInvalidError(`child sessions nested deeper than ${limits.childDepth} levels`)
    counts.sessions += 1
    counts.messages += node.messages.length
    for (const message of node.messages) counts.parts += message.parts.length
    for (const child of node.children ?? []) stack.push({ node: child, depth: depth + 1 })
  }
  checkCounts(counts, limits)
  return counts
}

export function checkCounts(counts: TranscriptCounts, limits = IMPORT_LIMITS): void {
  if (counts.sessions > limits.sessions) throw new ImportTooLargeError('the number of sessions', limits.sessions)
  if (counts.messages > limits.messages) throw new ImportTooLargeError('the number of messages', limits.messages)
  if (counts.parts > limits.parts) throw new ImportTooLargeError('the number of parts', limits.parts)
}
