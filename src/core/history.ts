import { isRealUser } from './compaction/markers'
import type { MessageWithParts } from './dto/messages'
import type { AssistantMessage, MessageError, Part } from './schema'

export type { MessageWithParts }

/** What a tool call cut short (by a cancel, or by a runner that died) reports as its error. */
export const ABORTED_TOOL_TEXT = 'Tool execution aborted'

/**
 * Whether a reply that ends in this error is stored with `finish: "error"` (tabcode marks every errored reply so,
 * where opencode marks only the overflows it cannot compact: docs/differences-from-opencode.md). A stopped reply is
 * the exception, stored as opencode stores it: `MessageAbortedError` and the finish its step reached, none when it
 * was stopped mid-step, so its export is opencode's.
 */
export function marksFinishError(error: MessageError): boolean {
  return error.name !== 'MessageAbortedError'
}

/**
 * Creation order, except that a reply goes with the prompt it answers: a prompt stored (by another tab) while a step
 * was being set up is older than that step's reply, and the model must see the reply before that prompt, not after
 * it. Stable, and the identity for every history without such a prompt.
 */
export function inTurnOrder(history: MessageWithParts[]): MessageWithParts[] {
  const position = new Map(history.map((entry, index) => [entry.info.id, index]))
  const anchor = (entry: MessageWithParts, index: number) => {
    const parent = entry.info.role === 'assistant' ? position.get(entry.info.parentID) : undefined
    return parent !== undefined && parent < index ? parent : index
  }
  return history
    .map((entry, index) => ({ entry, index, anchor: anchor(entry, index) }))
    .sort((a, b) => a.anchor - b.anchor || a.index - b.index)
    .map(({ entry }) => entry)
}

export function lastOf(history: MessageWithParts[], role: 'user' | 'assistant'): MessageWithParts | undefined {
  let found: MessageWithParts | undefined
  for (const entry of history) if (entry.info.role === role && (!found || entry.info.id > found.info.id)) found = entry
  return found
}

/** The newest assistant message that answers the given user message. */
function replyTo(history: MessageWithParts[], userID: string): (MessageWithParts & { info: AssistantMessage }) | undefined {
  let found: (MessageWithParts & { info: AssistantMessage }) | undefined
  for (const entry of history) {
    if (entry.info.role !== 'assistant' || entry.info.parentID !== userID) continue
    if (!found || entry.info.id > found.info.id) found = entry as MessageWithParts & { info: AssistantMessage }
  }
  return found
}

/**
 * What the next step answers from: the history up to the oldest prompt stored after the newest prompt that has a
 * reply, when there is one, else all of it. Two prompts that land before either is answered (two tabs sending at
 * once) are then answered one at a time and in order, each by its own reply, rather than one reply standing for
 * both; the newest user message of what is returned is the prompt the step answers.
 */
export function stepHistory(history: MessageWithParts[]): MessageWithParts[] {
  const answered = new Set(history.flatMap((entry) => (entry.info.role === 'assistant' ? [entry.info.parentID] : [])))
  let unanswered: number | undefined
  for (let index = history.length - 1; index >= 0; index--) {
    const info = history[index]!.info
    if (info.role !== 'user') continue
    if (answered.has(info.id)) break
    unanswered = index
  }
  if (unanswered === undefined) return history
  // A compaction marker made for that prompt (the check before its step) is part of answering it, not a prompt.
  const next = history.findIndex((entry, index) => index > unanswered && isRealUser(entry))
  return next === -1 ? history : history.slice(0, next)
}

/**
 * The newest prompt, when it is the user's and no reply answers it yet. After a repair, it is a prompt the dead runner
 * never reached: one that joined its turn (to be answered at the next step) or came just before its tab closed.
 */
export function unansweredPrompt(history: MessageWithParts[]): MessageWithParts | undefined {
  const user = lastOf(history, 'user')
  if (!user || !isRealUser(user) || replyTo(history, user.info.id)) return undefined
  return user
}

/**
 * Whether a message came with the history a fork copied rather than being stored in this session. A fork dates every
 * message it copies before its own creation (`copyHistory` in `session/fork.ts`) and everything stored in it later is
 * dated from then on. A copied prompt is the source's (perhaps a stranger's, from a link): nothing answers it unless
 * the user asks.
 */
export function cameWithCopy(message: { time: { created: number } }, session: { fork?: unknown; time: { created: number } }): boolean {
  return session.fork !== undefined && message.time.created < session.time.created
}

/** A tool part that still expects a result: anything but an interrupted orphan or a provider-executed call. */
function isLiveToolPart(part: Part): boolean {
  if (part.type !== 'tool') return false
  if (part.metadata?.providerExecuted === true) return false
  return !(part.state.status === 'error' && part.state.metadata?.interrupted === true)
}

/**
 * The loop's exit rule: the newest reply whose parent is the newest user message, finished for a reason other
 * than calling tools, and has no tool calls whose results the model has not seen yet (some providers say `stop`
 * after calling tools). A turn that ended in an error is over too, unless the user asked to resume it. A compaction
 * marker with no answer yet is work; its summary ends the turn (an automatic compaction adds the message that
 * carries on), whatever the summariser's finish reason: its tools are never run.
 *
 * A reply counts by its parentID, never by being newer: a step records the prompt it answers from the same read
 * that built its request, so a prompt stored while that step was being set up has no reply and is answered next.
 */
export function turnIsDone(history: MessageWithParts[], options: { resume?: boolean } = {}): boolean {
  const user = lastOf(history, 'user')
  if (!user) return true
  const assistant = replyTo(history, user.info.id)
  if (!assistant) return false
  if (assistant.info.error) return !options.resume || assistant.info.error.name === 'ContextOverflowError'
  if (assistant.info.summary) return true
  const finish = assistant.info.finish
  if (!finish || finish === 'tool-calls' || finish === 'unknown') return false
  return !assistant.parts.some(isLiveToolPart)
}
