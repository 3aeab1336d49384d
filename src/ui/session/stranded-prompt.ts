import { cameWithCopy, unansweredPrompt } from '../../core/history'
import { isImported } from '../../core/read-only'
import type { Message, Part, SessionInfo } from '../../core/schema'

/**
 * The session's newest prompt when it is stranded: no reply answers it (`unansweredPrompt`, the rule the worker's
 * repair uses too) and nothing works on it. The session is idle, writable, with no revert pending, and the prompt was
 * stored in this session: one a fork copied (perhaps from a stranger's link) is part of the record, never offered as
 * the user's. A runner that died before its first step left it so (its tab reloaded just after the prompt was
 * stored), or a Stop ended the turn it had joined. The session view offers to answer it, so it is never left silent.
 */
export function strandedPrompt(input: {
  session: SessionInfo | undefined
  messages: readonly Message[]
  parts: (messageID: string) => readonly Part[] | undefined
  running: boolean
}): string | undefined {
  const { session } = input
  if (!session || input.running || isImported(session) || session.revert) return undefined
  const prompt = unansweredPrompt(input.messages.map((info) => ({ info, parts: [...(input.parts(info.id) ?? [])] })))
  if (!prompt || cameWithCopy(prompt.info, session)) return undefined
  return prompt.info.id
}
