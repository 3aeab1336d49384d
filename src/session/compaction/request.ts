import type { ModelMessage } from 'ai'
import { MAX_STEPS_PROMPT, type Agent } from '../../core/agent'
import type { MessageWithParts } from '../../store/message-store'
import { toModelMessages, toolResultMediaFor } from '../model-messages'
import type { ModelReference } from '../../core/schema'
import { modeReminder, systemPrompt, type Environment, type ProjectContext } from '../../core/system-prompt'
import { filterCompacted } from '../../core/compaction/filter'
import { contextDates } from '../../core/context-dates'

export interface RequestInput {
  /** The whole stored history, oldest first. */
  history: MessageWithParts[]
  /** The model the request goes to (its own reasoning is sent as reasoning, another model's as text). */
  model: ModelReference
  /**
   * The SDK's provider name (`anthropic.messages`, `openai.chat`): which media its tool results can carry, which empty
   * text parts go.
   */
  provider?: string
  agent: Agent
  environment: Environment
  project?: ProjectContext
  /** The agent's last allowed step: it is told to wrap up. */
  lastStep?: boolean
  /** The prompts' attachments by blob hash (`loadAttachments`). */
  attachments?: ReadonlyMap<string, Uint8Array>
}

export interface ModelRequest {
  system: string
  messages: ModelMessage[]
  /** The summary the history starts from, when it was compacted. */
  summaryMessageID?: string
}

/**
 * The system prompt and messages of a step, from the stored history alone. The loop sends exactly this, and the
 * "what the model sees" view shows exactly this, so the two cannot drift apart.
 */
export function buildRequest(input: RequestInput): ModelRequest {
  const filtered = filterCompacted(input.history)
  const toolResultMedia = input.provider ? toolResultMediaFor(input.provider, input.model.modelID) : 'none'
  // The date is the history's first day, and a later day's prompt says the new one: the system prompt stays the
  // same bytes across a session's turns and days, so the provider's prompt cache keeps hitting (opencode 2's way).
  const dates = contextDates(filtered.messages)
  const messages = toModelMessages(filtered.messages, input.model, {
    toolResultMedia,
    notes: withModeReminder(dates.notes, filtered.messages, modeReminder(input.agent.name, previousAgentOf(input.history).previousAgent)),
    ...(input.provider ? { provider: input.provider } : {}),
    ...(input.attachments ? { attachments: input.attachments } : {}),
  })
  if (input.lastStep) messages.push({ role: 'assistant', content: MAX_STEPS_PROMPT })
  const environment = dates.baseline === undefined ? input.environment : { ...input.environment, now: dates.baseline }
  const system = systemPrompt(input.agent, environment, input.project)
  return { system, messages, ...(filtered.summaryMessageID ? { summaryMessageID: filtered.summaryMessageID } : {}) }
}

/**
 * The notes with the mode reminder (plan is read-only; build after plan may edit again) after the last user message's
 * own, as opencode adds it in memory to the last user message (its `SessionReminders`): never stored, and never in
 * the system prompt, whose bytes then stay the same when the user switches agents.
 */
function withModeReminder(notes: ReadonlyMap<string, string>, history: MessageWithParts[], reminder: string | undefined): ReadonlyMap<string, string> {
  if (!reminder) return notes
  const last = history.findLast((entry) => entry.info.role === 'user')
  if (!last) return notes
  const withReminder = new Map(notes)
  const note = notes.get(last.info.id)
  withReminder.set(last.info.id, note ? `${note}\n\n${reminder}` : reminder)
  return withReminder
}

/** The agent of the last reply before this turn, so switching from plan to build can be told to the model. */
export function previousAgentOf(history: MessageWithParts[]): { previousAgent?: string } {
  let seenUser = false
  for (let index = history.length - 1; index >= 0; index--) {
    const info = history[index]!.info
    if (info.role === 'user') seenUser = true
    // A summary is tabcode's own reply, not an agent the user worked with.
    else if (seenUser && info.summary !== true) return { previousAgent: info.agent }
  }
  return {}
}
