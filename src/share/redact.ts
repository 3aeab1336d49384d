import { redactText } from '../core/redact'
import type { Redaction } from '../core/dto/share'
import type { SessionTranscript } from './transcript'

// The text scanner is core's (the console log uses it too); the transcript walk and its wording stay here.
export { redactionMarker, redactText } from '../core/redact'
export type { Redaction }


/** Human wording for a path into a transcript. */
export function describePath(transcript: SessionTranscript, path: readonly (string | number)[]): string {
  const words: string[] = []
  let node: SessionTranscript | undefined = transcript
  let index = 0
  while (path[index] === 'children' && node) {
    const child = path[index + 1] as number
    node = node.children?.[child]
    words.push(`Child session ${child + 1}`)
    index += 2
  }
  if (path[index] === 'info') {
    words.push(`Session ${path.slice(index + 1).join('.')}`)
    return words.join(' · ')
  }
  if (path[index] === 'messages' && node) {
    const messageIndex = path[index + 1] as number
    const message = node.messages[messageIndex]
    words.push(`Message ${messageIndex + 1}${message ? ` (${message.info.role})` : ''}`)
    if (path[index + 2] === 'parts') {
      const part = message?.parts[path[index + 3] as number]
      words.push(part?.type === 'tool' ? `tool "${part.tool}"` : `${part?.type ?? 'part'} part`)
      const rest = path.slice(index + 4)
      if (rest.length) words.push(rest.join('.'))
    } else {
      words.push(path.slice(index + 2).join('.'))
    }
  }
  return words.join(' · ')
}

/**
 * A copy of any JSON value with secrets redacted in every string and every key, and where each one was.
 * `afterItem` hears of each array item done, with the array's path (how an export counts the messages it redacted).
 */
export function redactValue<T>(
  value: T,
  known: readonly string[] = [],
  afterItem?: (path: readonly (string | number)[]) => void,
): { value: T; found: { kind: string; hint: string; path: (string | number)[] }[] } {
  const found: { kind: string; hint: string; path: (string | number)[] }[] = []
  const visit = (current: unknown, path: (string | number)[]): unknown => {
    if (typeof current === 'string') {
      const { text, found: here } = redactText(current, known)
      for (const item of here) found.push({ ...item, path })
      return text
    }
    if (Array.isArray(current)) {
      return current.map((item, index) => {
        const clean = visit(item, [...path, index])
        afterItem?.(path)
        return clean
      })
    }
    if (current && typeof current === 'object') {
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(current)) {
        const { text: cleanKey, found: here } = redactText(key, known)
        for (const entry of here) found.push({ ...entry, path: [...path, key] })
        out[cleanKey] = visit(item, [...path, key])
      }
      return out
    }
    return current
  }
  return { value: visit(value, []) as T, found }
}

/**
 * A copy of the transcript with secrets redacted in every string (keys of free-form records included), and the
 * list of what was taken out, for the preview the user sees before sharing.
 */
export function redactTranscript(
  transcript: SessionTranscript,
  known: readonly string[] = [],
  onMessage?: () => void,
): { transcript: SessionTranscript; redactions: Redaction[] } {
  const { value, found } = redactValue(transcript, known, onMessage && ((path) => isMessageList(path) && onMessage()))
  return { transcript: value, redactions: found.map((item) => ({ ...item, where: describePath(transcript, item.path) })) }
}

/** `messages` of the root or of a child at any depth (`children`, 0, `messages`), not an array a part happens to hold. */
function isMessageList(path: readonly (string | number)[]): boolean {
  if (path.length % 2 === 0 || path.at(-1) !== 'messages') return false
  return path.slice(0, -1).every((key, index) => (index % 2 === 0 ? key === 'children' : typeof key === 'number'))
}
