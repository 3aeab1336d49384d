import { lastOf, marksFinishError } from '../core/history'
import { ascending } from '../core/id'
import type { AssistantMessage, InboxEntry, MessageError, ModelReference, SessionInfo, UserMessage } from '../core/schema'
import { modelForPrompt } from '../core/settings'
import { createCompactionMarker } from '../store/compaction-store'
import type { StoreContext } from '../store/context'
import { addMessageIfCurrent, updateMessage, type MessageWithParts } from '../store/message-store'
import { createUserMessage, takeQueuedPrompt } from '../store/prompt'
import { getSettings } from '../store/provider-store'
import { getSession } from '../store/session-store'
import type { ResolvedModel } from './model-source'

// What the step loop writes to the store, and the reads a write needs, each named for what it means to the turn.
// The turn's other reads are in turn-reads.ts; its history is read whole by loadRecentHistory.

/**
 * The prompt queued behind a finished turn, taken off the queue, with the model it runs with: its own, else the
 * last prompt's, else the session's or the default (undefined when none names one). Undefined when nothing waits.
 */
export async function takeNextPrompt(
  store: StoreContext,
  sessionID: string,
  history: MessageWithParts[],
): Promise<{ queued: InboxEntry; model: ModelReference | undefined } | undefined> {
  const queued = await takeQueuedPrompt(store, sessionID)
  if (!queued) return undefined
  const lastUser = lastOf(history, 'user')?.info as { model?: ModelReference } | undefined
  const model = modelForPrompt({ explicit: queued.model, lastUser, session: await getSession(store, sessionID), settings: await getSettings(store) })
  return { queued, model }
}

/** A prompt taken off the queue, stored as the session's newest prompt: the next turn answers it. */
export async function storeNextPrompt(store: StoreContext, sessionID: string, queued: InboxEntry, model: ModelReference): Promise<void> {
  await createUserMessage(store, { sessionID, parts: queued.parts, model, ...(queued.agent ? { agent: queued.agent } : {}) })
}

/**
 * An automatic compaction marker, with the agent and model of the prompt being answered: the next iteration
 * summarises. `overflow`: the newest prompt is replayed after the summary, as after a provider's overflow.
 */
export async function requestCompaction(store: StoreContext, user: UserMessage, options: { overflow?: boolean } = {}): Promise<void> {
  await createCompactionMarker(store, { sessionID: user.sessionID, agent: user.agent, model: user.model, auto: true, ...(options.overflow ? { overflow: true } : {}) })
}

/**
 * A step's reply to the prompt `user`, stored empty before the model is called. With `since` (the step decided from
 * a history kept in memory), only if the session holds nothing newer than that history but the replies it kept:
 * undefined, with nothing stored, when another writer (a prompt from another tab, say) came in between.
 */
export async function openReply(
  store: StoreContext,
  session: SessionInfo,
  user: UserMessage,
  resolved: ResolvedModel,
  since: { after: readonly [number, string]; known: readonly string[] },
): Promise<AssistantMessage | undefined>
export async function openReply(store: StoreContext, session: SessionInfo, user: UserMessage, resolved: ResolvedModel): Promise<AssistantMessage>
export async function openReply(
  store: StoreContext,
  session: SessionInfo,
  user: UserMessage,
  resolved: ResolvedModel,
  since?: { after: readonly [number, string]; known: readonly string[] },
): Promise<AssistantMessage | undefined> {
  const now = store.now()
  const assistant: AssistantMessage = {
    id: ascending('message', now),
    sessionID: session.id,
    role: 'assistant',
    time: { created: now },
    parentID: user.id,
    modelID: resolved.modelID,
    providerID: resolved.providerID,
    agent: user.agent,
    mode: user.agent,
    path: { cwd: session.directory, root: session.directory },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  }
  if (since) return (await addMessageIfCurrent(store, assistant, since)) ? assistant : undefined
  await updateMessage(store, assistant)
  return assistant
}

/** The reply to a request refused before it was sent: stored, finished with the refusal's error. */
export async function refuseReply(store: StoreContext, session: SessionInfo, user: UserMessage, resolved: ResolvedModel, error: MessageError): Promise<void> {
  const refused = await openReply(store, session, user, resolved)
  refused.error = error
  refused.finish = 'error'
  refused.time.completed = store.now()
  await updateMessage(store, refused)
}

/**
 * A step's reply as it ended. The processor stored it completed with the step's finish, unless the stream ended
 * otherwise; the error that stands (`final`: the step's own, or what its size means) marks it. Written only when
 * one of those changed it.
 */
export async function closeReply(
  store: StoreContext,
  assistant: AssistantMessage,
  ended: { error: MessageError | undefined; final: MessageError | undefined },
): Promise<void> {
  const storedComplete = assistant.time.completed !== undefined
  if (!storedComplete) assistant.time.completed = store.now()
  if (ended.final) {
    assistant.error = ended.final
    // Unlike opencode (only for overflows it cannot compact), every errored turn is marked finish: error. A stopped
    // one is as opencode stores it: the finish its step reached, none when it was stopped mid-step.
    if (marksFinishError(ended.final) && (!assistant.finish || ended.error)) assistant.finish = 'error'
  }
  if (ended.final || !storedComplete) await updateMessage(store, assistant)
}
