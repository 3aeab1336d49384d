import type { Message } from '../../core/schema'

/**
 * The `messageID` to fork at so that "Branch from here" keeps what the user pointed at. The worker's cut is
 * exclusive: at a prompt the fork holds everything before it; at a reply it must cut at the message after the reply,
 * or fork the whole session when the reply is the newest. The loaded messages are always the newest ones, in one
 * unbroken run, so a loaded message's successor is loaded too.
 */
export function branchPoint(messages: readonly Message[], message: Message): string | undefined {
  if (message.role === 'user') return message.id
  const index = messages.findIndex((candidate) => candidate.id === message.id)
  return index >= 0 ? messages[index + 1]?.id : undefined
}
