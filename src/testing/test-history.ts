import { makeBuilders } from './fixture-builders'
import type { MessageWithParts } from '../store/message-store'
import type { AssistantMessage, Part, UserMessage } from '../core/schema'

/** Small histories for the compaction tests (tests only): each call adds a message, ids ascend with each call. */
export function historyBuilder() {
  const build = makeBuilders()
  const sessionID = build.session().id
  const history: MessageWithParts[] = []
  let lastUser: UserMessage | undefined
  const part = (message: { id: string }, fields: Record<string, unknown>): Part =>
    ({ id: build.ids.ascending('part'), sessionID, messageID: message.id, ...fields }) as Part
  const push = (info: MessageWithParts['info'], parts: (info: MessageWithParts['info']) => Part[]) => {
    const entry = { info, parts: parts(info) }
    history.push(entry)
    return entry
  }
  return {
    sessionID,
    history,
    part,
    user(text: string, extra: (info: UserMessage) => Part[] = () => []) {
      const info = build.user(sessionID)
      lastUser = info
      return push(info, () => [build.text(info, text), ...extra(info)])
    },
    /** The synthetic "continue" an automatic compaction adds. */
    resume() {
      const info = build.user(sessionID)
      return push(info, () => [part(info, { type: 'text', text: 'continue', synthetic: true, metadata: { compaction_continue: true } })])
    },
    marker(fields: { auto?: boolean; overflow?: boolean; tail_start_id?: string; undone?: number } = {}) {
      const info = build.user(sessionID)
      return push(info, () => [part(info, { type: 'compaction', auto: fields.auto ?? true, ...fields })])
    },
    assistant(text: string, overrides: Partial<AssistantMessage> = {}, extra: (info: AssistantMessage) => Part[] = () => []) {
      const parent = [...history].reverse().find((entry) => entry.info.role === 'user')?.info.id ?? lastUser?.id ?? 'msg_none'
      const info = build.assistant(sessionID, parent, overrides)
      return push(info, () => [...(text ? [build.text(info, text)] : []), ...extra(info)])
    },
    summary(text: string, overrides: Partial<AssistantMessage> = {}) {
      return this.assistant(text, { summary: true, agent: 'compaction', mode: 'compaction', ...overrides })
    },
    tool(message: { id: string }, tool: string, output: string, compacted?: number): Part {
      return part(message, {
        type: 'tool',
        callID: build.ids.ascending('part'),
        tool,
        state: { status: 'completed', input: {}, output, title: tool, metadata: {}, time: { start: 1, end: 2, ...(compacted ? { compacted } : {}) } },
      })
    },
    textOf: (entry: MessageWithParts) => entry.parts.flatMap((item) => (item.type === 'text' ? [item.text] : item.type === 'compaction' ? ['[marker]'] : [])).join(''),
  }
}
