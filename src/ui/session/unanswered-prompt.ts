import type { Message, Part } from '../../core/schema'

/**
 * The newest prompt, when nothing answers it and nothing works on it: the session is idle in every tab, writable,
 * with no revert pending, and its newest message is a prompt of the user's (not a compaction marker) with no reply.
 * A runner that died before its first step left it so (its tab reloaded just after the prompt was stored), or a Stop
 * ended the turn it had joined. The session view offers to answer it, so it is never left silent.
 */
export function unansweredPrompt(input: {
  messages: readonly Message[]
  parts: (messageID: string) => readonly Part[] | undefined
  running: boolean
  readOnly: boolean
  reverted: boolean
}): string | undefined {
  if (input.running || input.readOnly || input.reverted) return undefined
  const last = input.messages.at(-1)
  if (last?.role !== 'user') return undefined
  if (input.parts(last.id)?.some((part) => part.type === 'compaction')) return undefined
  return last.id
}
