import type { FileDiff, Message, Part, ToolPart } from '../../core/schema'

/** The session's bash calls, oldest first (messages and their parts are both kept in creation order). */
export function bashCalls(messages: readonly Message[], partsOf: (messageID: string) => readonly Part[]): ToolPart[] {
  const calls: ToolPart[] = []
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    for (const part of partsOf(message.id)) if (part.type === 'tool' && part.tool === 'bash') calls.push(part)
  }
  return calls
}

/** A turn that changed files: the user message that started it, and its net diffs. */
export interface TurnChanges {
  messageID: string
  /** The start of what the user wrote, to tell turns apart in a picker. */
  prompt: string
  created: number
  diffs: FileDiff[]
}

const PROMPT_CHARS = 48

export function turnChanges(messages: readonly Message[], partsOf: (messageID: string) => readonly Part[]): TurnChanges[] {
  const turns: TurnChanges[] = []
  for (const message of messages) {
    if (message.role !== 'user' || !message.summary?.diffs.length) continue
    const written = partsOf(message.id).find((part) => part.type === 'text' && !part.synthetic)
    const text = written?.type === 'text' ? written.text.trim().split('\n')[0]! : ''
    turns.push({
      messageID: message.id,
      prompt: text.length > PROMPT_CHARS ? `${text.slice(0, PROMPT_CHARS - 1)}…` : text,
      created: message.time.created,
      diffs: message.summary.diffs,
    })
  }
  return turns
}

/** Something that moves when the session's files may have changed: a new patch part or the end of a turn. */
export function changeMark(messages: readonly Message[], partsOf: (messageID: string) => readonly Part[]): string {
  let patches = 0
  for (const message of messages) for (const part of partsOf(message.id)) if (part.type === 'patch') patches++
  const last = messages[messages.length - 1]
  const finished = last?.role === 'assistant' ? (last.time.completed ?? 0) : 0
  return `${messages.length}:${patches}:${finished}`
}
