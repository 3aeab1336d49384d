import type { MessageWithParts } from './dto/messages'

export const TITLE_MAX_LENGTH = 100

export const TITLE_PROMPT = [
  'You write the title of a conversation between a user and a coding assistant.',
  'Reply with one line of at most 50 characters, in the language the user wrote in, naming what the user wants',
  '(for example "Fix flaky login test" or "Explain the parser cache"). No quotes, no punctuation at the end, no tool',
  'names, nothing else.',
].join(' ')

/** The model's reply made into a title: thinking blocks dropped, first non-empty line, at most 100 characters. */
export function cleanTitle(reply: string): string | undefined {
  const withoutThinking = reply.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').replace(/<think(?:ing)?>[\s\S]*$/i, '')
  const line = withoutThinking
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text.length > 0)
  if (!line) return undefined
  const unquoted = line.replace(/^["'`]+|["'`]+$/g, '').trim()
  if (!unquoted) return undefined
  return unquoted.length > TITLE_MAX_LENGTH ? `${unquoted.slice(0, TITLE_MAX_LENGTH - 3)}...` : unquoted
}

/** opencode's rule: only while the conversation has exactly one real (not all-synthetic) user message. */
export function firstRealUserMessage(history: MessageWithParts[]): MessageWithParts | undefined {
  const real = history.filter(
    (entry) => entry.info.role === 'user' && entry.parts.some((part) => part.type !== 'text' || !part.synthetic),
  )
  return real.length === 1 ? real[0] : undefined
}
