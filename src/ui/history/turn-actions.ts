import type { AssistantMessage, Message, Part } from '../../core/schema'
import { promptText } from './prompt-text'

/** What "Continue" sends after a Stop: the model picks the reply up where it was cut off. */
export const CONTINUE_PROMPT = 'Continue from where you stopped.'

/** A message as the user would paste it elsewhere: its text parts, as the markdown they were written in. */
export function messageMarkdown(message: Message, parts: readonly Part[]): string {
  if (message.role === 'user') return promptText(parts)
  return parts
    .flatMap((part) => (part.type === 'text' && !part.synthetic ? [part.text] : []))
    .join('\n\n')
    .trim()
}

/** The last assistant message of the visible conversation: the one reply Regenerate and Continue apply to. */
export function lastReply(messages: readonly Message[]): AssistantMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!
    if (message.role === 'assistant') return message
    // A prompt after the last reply (queued, or just sent) means that reply is no longer the last word.
    return undefined
  }
  return undefined
}

/** A reply the user stopped: Continue is offered on it. */
export function wasStopped(message: AssistantMessage): boolean {
  return message.error?.name === 'MessageAbortedError'
}
