import type { ModelMessage } from 'ai'
import type { Agent } from '../../core/agent'
import type { StoreContext } from '../../store/context'
import { ascending } from '../../core/id'
import type { ResolvedModel } from '../model-source'
import { updateMessage, updatePart, type MessageWithParts } from '../../store/message-store'
import { partsOf } from '../../store/parts'
import { toModelMessages } from '../model-messages'
import { CompactionMarkerError } from '../../core/errors'
import { marksFinishError } from '../../core/history'
import type { AssistantMessage, MessageError, ModelReference, SessionInfo } from '../../core/schema'
import { orderCompacted, visibleHistory } from '../../core/compaction/filter'
import { compactionOf, isSummary, replayIndex, summaryText } from '../../core/compaction/markers'
import { usableTokens } from '../../core/compaction/overflow'
import { fitToContext } from '../../core/compaction/fit'
import { compactionPrompt, HISTORY_TOO_LARGE, omittedMessagesNote, SESSION_TOO_LARGE } from '../../core/compaction/prompt'
import { continueMessage, replayPrompt } from '../../store/compaction-store'
import { estimateTokens, selectTail, tailBudget, type TailSelection } from '../../core/compaction/tail'

/** Tool outputs longer than this reach the summariser cut, with a note. */
export const SUMMARY_TOOL_OUTPUT_MAX = 2_000

/** What the summariser is given, and what it leaves verbatim: pure, from the history up to the marker. */
export interface SummaryInput {
  /** The prompt that overflowed, replayed after the summary (overflow markers only). */
  replay?: MessageWithParts
  /** The previous summary's text, to be brought up to date. */
  previousSummary?: string
  selection: TailSelection
}

/**
 * opencode's compaction over the history up to the marker: the prompt to replay (an overflow marker's newest
 * real prompt, with everything after it) is set aside; of the history before it only what the next request would
 * send counts, earlier compactions hidden (the newest summary's text becomes the previous summary); then the tail
 * kept verbatim is split off within the budget.
 */
export function summaryInput(history: MessageWithParts[], markerID: string, options: { budget: number; estimate: (messages: MessageWithParts[]) => number; turns?: number }): SummaryInput {
  const markerIndex = history.findIndex((entry) => entry.info.id === markerID)
  const all = visibleHistory(history.slice(0, markerIndex + 1), markerID)
  const marker = all.length - 1
  const replay = replayIndex(all, marker)
  const ordered = orderCompacted(all.slice(0, replay ?? marker))
  const previous = ordered.summaryMessageID ? ordered.messages.find((entry) => entry.info.id === ordered.summaryMessageID) : undefined
  const previousSummary = previous ? summaryText(previous) : undefined
  const messages = ordered.messages.filter((entry) => !compactionOf(entry) && !isSummary(entry))
  return {
    ...(replay !== undefined ? { replay: all[replay]! } : {}),
    ...(previousSummary ? { previousSummary } : {}),
    selection: selectTail(messages, { budget: options.budget, estimate: options.estimate, ...(options.turns !== undefined ? { turns: options.turns } : {}) }),
  }
}

/**
 * The summariser's messages: the head as converted for its model, then the compaction prompt, cut to the
 * summariser's own usable context (its oldest messages left out, with a leading note saying how many).
 */
export function summariserMessages(head: MessageWithParts[], input: { summarizer: Pick<ResolvedModel, 'providerID' | 'modelID' | 'limit'>; system: string; previousSummary?: string }): ModelMessage[] {
  const model = { providerID: input.summarizer.providerID, modelID: input.summarizer.modelID }
  const convert = (messages: MessageWithParts[]) => toModelMessages(messages, model, { stripMedia: true, toolOutputMaxChars: SUMMARY_TOOL_OUTPUT_MAX })
  const prompt: ModelMessage = { role: 'user', content: compactionPrompt(input.previousSummary ? { previousSummary: input.previousSummary } : {}) }
  const all = [...convert(head), prompt]
  const usable = usableTokens(input.summarizer.limit)
  if (input.summarizer.limit.context === 0 || estimateTokens([input.system, all]) < usable) return all
  const note = (omitted: number): ModelMessage => ({ role: 'user', content: omittedMessagesNote(omitted) })
  const fixed = estimateTokens([input.system, note(head.length), prompt])
  const fitted = fitToContext(head, { budget: usable - fixed, estimate: (entry) => estimateTokens(convert([entry])) })
  if (fitted.omitted === 0) return all
  return [note(fitted.omitted), ...convert(fitted.messages), prompt]
}

export interface CompactionDependencies {
  store: StoreContext
  resolve(reference: ModelReference): Promise<ResolvedModel>
  agent(name: string): Promise<Agent>
  /**
   * Streams one model call without tools into the summary message, as any step is (deltas live, parts written,
   * usage and cost recorded, retryable errors retried); resolves with the error it ended with, if any.
   */
  stream(input: { assistant: AssistantMessage; resolved: ResolvedModel; system: string; messages: ModelMessage[] }): Promise<{ error?: MessageError }>
}

/** The user's say in what a compaction keeps verbatim (Settings → Context); absent fields take opencode's defaults. */
export interface TailSettings {
  /** `tail_turns`: recent turns kept verbatim. */
  turns?: number
  /** `preserve_recent_tokens`: the most tokens they may take. */
  preserveRecentTokens?: number
}

export type CompactionResult = { outcome: 'continue' } | { outcome: 'stop'; error: MessageError }

/**
 * Answers a compaction marker: a summary assistant message (summary: true, agent "compaction", the marker as
 * parent) written by the compaction agent's model (else the user's), from the history the marker's turn would have
 * sent, with media named rather than sent, long tool outputs cut and no tools. Then the tail it left verbatim is
 * recorded on the marker and, after an automatic compaction, the work goes on: the overflowing prompt is replayed,
 * or a synthetic "continue" is added. A summariser that overflows too stops with its error; it is never retried.
 * How many recent turns stay verbatim, and in how many tokens, is the user's `tail` setting (opencode's
 * `tail_turns` and `preserve_recent_tokens`).
 */
export async function processCompaction(
  dependencies: CompactionDependencies,
  input: { session: SessionInfo; history: MessageWithParts[]; marker: MessageWithParts; tail?: TailSettings },
): Promise<CompactionResult> {
  const { store } = dependencies
  // Rows from an import or an older bug can carry a marker elsewhere; its model and agent would be missing.
  if (input.marker.info.role !== 'user') throw new CompactionMarkerError(input.marker.info.id, input.marker.info.role)
  const marker = input.marker.info
  const compaction = compactionOf(input.marker)!
  const agent = await dependencies.agent('compaction')
  const userModel = await dependencies.resolve(marker.model)
  const summarizer = agent.model ? await dependencies.resolve(agent.model) : userModel
  const current = { providerID: userModel.providerID, modelID: userModel.modelID }
  const { replay, previousSummary, selection } = summaryInput(input.history, marker.id, {
    budget: tailBudget(usableTokens(userModel.limit), input.tail?.preserveRecentTokens),
    ...(input.tail?.turns !== undefined ? { turns: input.tail.turns } : {}),
    estimate: (messages) => estimateTokens(toModelMessages(messages, current)),
  })
  const messages = summariserMessages(selection.head, { summarizer, system: agent.prompt, ...(previousSummary ? { previousSummary } : {}) })

  const now = store.now()
  const assistant: AssistantMessage = {
    id: ascending('message', now),
    sessionID: input.session.id,
    role: 'assistant',
    time: { created: now },
    parentID: marker.id,
    modelID: summarizer.modelID,
    providerID: summarizer.providerID,
    agent: 'compaction',
    mode: 'compaction',
    path: { cwd: input.session.directory, root: input.session.directory },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    summary: true,
  }
  await updateMessage(store, assistant)
  const streamed = await dependencies.stream({ assistant, resolved: summarizer, system: agent.prompt, messages })
  let error = streamed.error
  if (error?.name === 'ContextOverflowError') {
    error = { name: 'ContextOverflowError', data: { ...error.data, message: replay ? HISTORY_TOO_LARGE : SESSION_TOO_LARGE } }
  }
  if (!error) {
    const written = await partsOf(store, assistant.id)
    if (!summaryText({ info: assistant, parts: written })) error = { name: 'UnknownError', data: { message: 'The summariser answered with no summary.' } }
  }
  assistant.time.completed = store.now()
  if (error) {
    assistant.error = error
    if (marksFinishError(error)) assistant.finish = 'error'
  }
  await updateMessage(store, assistant)
  if (error) return { outcome: 'stop', error }

  if (selection.tailStartID) await updatePart(store, { ...compaction, tail_start_id: selection.tailStartID })
  store.emit({ type: 'session.compacted', sessionID: input.session.id, messageID: assistant.id })
  if (compaction.auto) {
    if (replay) await replayPrompt(store, replay)
    else await continueMessage(store, { sessionID: input.session.id, agent: marker.agent, model: marker.model, overflow: compaction.overflow === true })
  }
  return { outcome: 'continue' }
}
