import { streamText, type LanguageModel, type ModelMessage } from 'ai'
import { resolveLanguageModel } from 'ai/internal'
import { log } from '../core/log'
import { subagentSessionRules } from '../core/permission/evaluate'
import { getSettings } from '../store/provider-store'
import { agentFor } from '../store/agent-settings'
import { isCompletedSummary, isRealUser, isSummary, pendingMarker } from '../core/compaction/markers'
import { countTokens, isOverflow, maxOutputTokens, usableTokens, type ModelLimit } from '../core/compaction/overflow'
import { processCompaction } from './compaction/process'
import { presendVerdict, requestTokens } from './compaction/presend'
import { overflowWithoutAuto, promptTooLarge, stillOverflowing } from '../core/compaction/prompt'
import { pruneSession } from './compaction/prune'
import { buildRequest } from './compaction/request'
import { createCompactionMarker } from '../store/compaction-store'
import type { StoreContext } from '../store/context'
import type { SessionStatus } from '../core/event'
import { lastOf, loadHistory, stepHistory, turnIsDone } from '../core/history'
import { ascending } from '../core/id'
import { updateMessage, type MessageWithParts } from '../store/message-store'
import { streamModelCall, type StepTools } from './model-call'
import { toModelMessages } from './model-messages'
import { PartWriter, type WriterMetrics } from '../store/part-writer'
import { StepProcessor, type StepSnapshots } from './processor'
import { createUserMessage, takeQueuedPrompt } from '../store/prompt'
import { retryDelay, retryReason } from './retry'
import type { AssistantMessage, MessageError, ModelReference, SessionInfo } from '../core/schema'
import { createSession, findSession, getSession, setTitle } from '../store/session-store'
import { cleanTitle, firstRealUserMessage, TITLE_PROMPT } from '../core/title-generation'
import { isDefaultTitle } from '../core/title'
import type { Prices } from '../core/usage'
import type { ToolRegistry } from '../tools/registry'
import type { FileTimes, SubtaskRequest, SubtaskResult } from '../tools/tool'
import type { PermissionGate, SnapshotSource, WorkspaceSource } from './turn-services'
import {
  offeredDefinitions,
  projectInstructions,
  recordDiffs,
  recordPatch,
  stepTools,
  trackSnapshot,
  turnToolCalls,
  workspaceOf,
  type TurnContext,
} from './turn-tools'

export { OUTPUT_TOKEN_MAX } from '../core/compaction/overflow'

export interface ResolvedModel {
  model: LanguageModel
  providerID: string
  modelID: string
  /** `context` 0 means unknown (never compacted automatically); `input` is set for models with a separate input cap. */
  limit: ModelLimit
  cost: Prices
  /** Removes this provider's secrets from text (error bodies can echo the key back). */
  redact?: (text: string) => string
}

/** How the loop reaches models; the worker backs it with the configured providers, tests with mock models. */
export interface ModelSource {
  resolve(reference: ModelReference): Promise<ResolvedModel>
  /** The model for titles, preferably from the provider of `near`; undefined to use the conversation's own model. */
  smallModel(near?: ModelReference): Promise<ModelReference | undefined>
}

export interface LoopDependencies {
  store: StoreContext
  models: ModelSource
  tools: ToolRegistry
  retryLimit(): Promise<number>
  /** Waits, or rejects with an AbortError as soon as the signal fires. */
  sleep(milliseconds: number, signal: AbortSignal): Promise<void>
  setStatus(sessionID: string, status: SessionStatus): void
  /** Called with each step's writer, so the owner can flush it when the page is hidden. */
  onWriter?(writer: PartWriter | undefined): void
  /** Shared counters of every step's writer (for the benchmark). */
  metrics?: WriterMetrics
  /** The projects' workspaces; without one, each loop gets an empty in-memory workspace. */
  workspaces?: WorkspaceSource
  /** Without one, every request is allowed. */
  permissions?: PermissionGate
  /** Without one, steps take no snapshots and turns record no diffs. */
  snapshots?: SnapshotSource
  /** What each session has read (write and edit refuse stale files); kept by the owner for the worker's life. */
  fileTimes?: (sessionID: string) => FileTimes
  /** The compaction settings; read from the stored settings when not given. */
  compaction?: () => Promise<CompactionSettings>
}

export interface CompactionSettings {
  /** Compact when the history nears the model's context limit, or the provider says it is over. */
  auto: boolean
  /** Clear old tool outputs from what the model sees once the loop is done. */
  prune: boolean
}

async function compactionSettings(dependencies: LoopDependencies): Promise<CompactionSettings> {
  if (dependencies.compaction) return dependencies.compaction()
  const settings = await getSettings(dependencies.store)
  return { auto: settings.compactionAuto, prune: settings.compactionPrune }
}

export interface LoopOptions {
  signal: AbortSignal
  /** Run a step even though the last turn ended in an error (the "retry" action). */
  resume?: boolean
}

function abortError(): Error {
  return Object.assign(new Error('Stopped by the user'), { name: 'AbortError' })
}

/**
 * opencode's step loop. Each iteration re-reads the history from storage and decides from it alone (DESIGN
 * decision 2): a prompt stored by another tab is answered at the next step, and a reload loses nothing but the
 * stream in flight. One iteration is one model call and one assistant message: a step of the turn, or the summary
 * that answers a compaction marker. When the turn is done, prompts queued behind it are promoted one at a time,
 * each starting a fresh turn; when the loop is done, old tool outputs are pruned.
 *
 * Compaction is bounded, unlike opencode's: at most one per overflow. When the first step after a summary is still
 * over the context (by the provider's word or by its usage), the turn ends with an error that says what to do next.
 */
export async function runLoop(dependencies: LoopDependencies, sessionID: string, options: LoopOptions): Promise<void> {
  const { store } = dependencies
  const { signal } = options
  let resume = options.resume ?? false
  let step = 0
  // Busy only once there is work: a run that finds the turn already answered leaves the status alone.
  let busy = false
  let settings: CompactionSettings | undefined
  try {
    while (!signal.aborted) {
      const stored = await loadHistory(store, sessionID)
      if (turnIsDone(stored, { resume })) {
        const queued = await takeQueuedPrompt(store, sessionID)
        if (!queued) break
        const model = queued.model ?? (lastOf(stored, 'user')?.info as { model?: ModelReference } | undefined)?.model
        if (!model) break
        await createUserMessage(store, { sessionID, parts: queued.parts, model, ...(queued.agent ? { agent: queued.agent } : {}) })
        step = 0
        continue
      }
      const resuming = resume
      resume = false
      // The step answers the newest prompt of what it sends, and its reply names that prompt as its parent.
      const history = stepHistory(stored)
      const user = lastOf(history, 'user')
      if (!user || user.info.role !== 'user') break
      if (!busy) dependencies.setStatus(sessionID, { type: 'busy' })
      busy = true
      settings = await compactionSettings(dependencies)
      const session = await getSession(store, sessionID)

      const marker = pendingMarker(history, { resume: resuming })
      if (marker) {
        const result = await processCompaction(
          {
            store,
            resolve: (reference) => dependencies.models.resolve(reference),
            agent: (name) => agentFor(store, name),
            stream: (input) => runSummaryStep(dependencies, { ...input, sessionID, signal }),
          },
          { session, history, marker },
        ).catch((error: unknown) => ({ outcome: 'stop' as const, error: unknownError(error) }))
        if (result.outcome === 'stop') {
          if (result.error.name !== 'MessageAbortedError') store.emit({ type: 'session.error', sessionID, error: result.error })
          break
        }
        continue
      }

      let resolved: ResolvedModel
      try {
        resolved = await dependencies.models.resolve(user.info.model)
      } catch (error) {
        store.emit({ type: 'session.error', sessionID, error: unknownError(error) })
        break
      }
      const compacted = justCompacted(history)
      if (settings.auto && !compacted && lastFinishedOverflows(history, resolved.limit)) {
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true })
        continue
      }
      const agent = await agentFor(store, user.info.agent)
      const lastStep = agent.steps !== undefined && step + 1 >= agent.steps
      const workspace = await workspaceOf(dependencies, session.projectID)
      const status = dependencies.workspaces?.status(session.projectID) ?? { backend: 'local' as const }
      const { system, messages } = buildRequest({
        history,
        model: user.info.model,
        provider: resolveLanguageModel(resolved.model).provider,
        agent,
        environment: {
          providerID: resolved.providerID,
          modelID: resolved.modelID,
          directory: workspace.root,
          backend: status.backend,
          ...(status.reason ? { backendReason: status.reason } : {}),
          now: store.now(),
        },
        project: await projectInstructions(workspace),
        lastStep,
      })
      const turn: TurnContext = {
        session,
        agent: agent.name,
        agentRules: agent.permission,
        workspace,
        calls: turnToolCalls(history),
        signal,
      }
      const estimate = requestTokens({ system, messages, tools: offeredDefinitions(dependencies, turn) })
      const presend = presendVerdict({ estimate, limit: resolved.limit, auto: settings.auto, compacted, onlyPrompt: isOnlyTextPrompt(history) })
      if (presend.action === 'compact') {
        // Before a prompt is answered, as a provider overflow would: the prompt is replayed after the summary. Within
        // a turn, as a step's usage would: its steps so far are summarised too, and the turn continues.
        const overflow = history.at(-1)?.info.role === 'user'
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true, ...(overflow ? { overflow } : {}) })
        continue
      }
      if (presend.action === 'stop') {
        const refused = await createAssistantMessage(store, session, user.info.id, user.info.agent, resolved)
        refused.error = presend.error
        refused.finish = 'error'
        refused.time.completed = store.now()
        await updateMessage(store, refused)
        store.emit({ type: 'session.error', sessionID, error: presend.error })
        break
      }
      step++
      if (step === 1) void generateTitle(dependencies, session, history, resolved).catch(() => {})

      const before = await trackSnapshot(dependencies, session.projectID, workspace)
      const assistant = await createAssistantMessage(store, session, user.info.id, user.info.agent, resolved)
      const snapshots: StepSnapshots = {
        ...(before ? { before } : {}),
        after: () => trackSnapshot(dependencies, session.projectID, workspace),
      }
      const call = { sessionID, assistant, resolved, system, messages, signal, snapshots }
      const { error, blocked, after } = await runStepWithRetry(dependencies, {
        ...call,
        tools: (processor) => stepTools(dependencies, { ...call, turn }, processor, (request, parent, childSignal) => runSubtask(dependencies, request, parent, childSignal)),
      })
      assistant.time.completed = store.now()
      const verdict = overflowVerdict({ error, blocked, assistant, settings, compacted, limit: resolved.limit, onlyPrompt: isOnlyTextPrompt(history) })
      const final = verdict.error ?? error
      if (final) {
        assistant.error = final
        // Unlike opencode (only for overflows it cannot compact), every errored turn is marked finish: error.
        if (!assistant.finish || error) assistant.finish = 'error'
      }
      await updateMessage(store, assistant)
      await recordPatch(dependencies, assistant, before, after)
      if (verdict.compact === 'overflow') {
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true, overflow: true })
        continue
      }
      if (verdict.compact === 'usage') {
        // A reply that ends the turn is left alone: the next prompt compacts first (the check before a step).
        if (!turnIsDone(await loadHistory(store, sessionID))) {
          await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true })
        }
        continue
      }
      if (final) {
        if (final.name !== 'MessageAbortedError') store.emit({ type: 'session.error', sessionID, error: final })
        break
      }
      // The user rejected a permission: the turn ends here, as in opencode; the next prompt starts afresh.
      if (blocked) break
    }
  } finally {
    // Only a run that took steps can have changed the turn's files.
    if (busy) await recordDiffs(dependencies, sessionID).catch((error: unknown) => log.warn('tabcode: could not record the diffs of the turn', error))
    if (busy) dependencies.setStatus(sessionID, { type: 'idle' })
    // In the background, once the session is idle: nobody waits for it, and the session is free for the user's next
    // action (a history operation refused as busy right after "idle" would look broken). It touches only the
    // outputs of older turns, which no step writes.
    if (busy && settings?.prune) void pruneSession(store, sessionID).catch((error: unknown) => log.warn('tabcode: could not prune old tool outputs', error))
  }
}

function unknownError(error: unknown): MessageError {
  return { name: 'UnknownError', data: { message: error instanceof Error ? error.message : String(error) } }
}

/** The newest reply is a completed summary that still stands: the next step is the first after a compaction. */
function justCompacted(history: MessageWithParts[]): boolean {
  const last = lastOf(history, 'assistant')
  if (!last || !isCompletedSummary(last)) return false
  const marker = history.find((entry) => entry.info.id === (last.info as AssistantMessage).parentID)
  return !marker?.parts.some((part) => part.type === 'compaction' && part.undone !== undefined)
}

/** The check before a step (§6.2.1): the newest finished reply, unless it is a summary, used too much of the context. */
function lastFinishedOverflows(history: MessageWithParts[], limit: ModelLimit): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (entry.info.role !== 'assistant' || !entry.info.finish) continue
    return !isSummary(entry) && isOverflow({ tokens: entry.info.tokens, limit, auto: true })
  }
  return false
}

/**
 * What a finished step's size means (§6.2.2 and 3, bounded). A provider overflow compacts (`overflow`: the prompt
 * is replayed), a step whose usage overflowed compacts once it is done (`usage`), except right after a compaction,
 * where either ends the turn with a ContextOverflowError offering the next move. With automatic compaction off the
 * provider's overflow ends the turn with the same advice.
 */
function overflowVerdict(input: {
  error: MessageError | undefined
  blocked: boolean
  assistant: AssistantMessage
  settings: CompactionSettings
  compacted: boolean
  limit: ModelLimit
  /** The history is one text-only prompt: a summary of it would not be smaller, and has no attachments to drop. */
  onlyPrompt: boolean
}): { compact?: 'overflow' | 'usage'; error?: MessageError } {
  const { error, settings } = input
  if (error?.name === 'ContextOverflowError') {
    const detail = error.data.message
    if (input.onlyPrompt) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: promptTooLarge(detail) } } }
    if (!settings.auto) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: overflowWithoutAuto(detail) } } }
    if (input.compacted) return { error: { name: 'ContextOverflowError', data: { ...error.data, message: stillOverflowing(detail) } } }
    return { compact: 'overflow' }
  }
  if (error || input.blocked || !settings.auto) return {}
  if (!isOverflow({ tokens: input.assistant.tokens, limit: input.limit, auto: true })) return {}
  if (!input.compacted) return { compact: 'usage' }
  const used = `${countTokens(input.assistant.tokens)} tokens used, ${usableTokens(input.limit)} usable`
  return { error: { name: 'ContextOverflowError', data: { message: stillOverflowing(used) } } }
}

function isOnlyTextPrompt(history: Awaited<ReturnType<typeof loadHistory>>): boolean {
  const [only] = history
  return history.length === 1 && !!only && isRealUser(only) && !only.parts.some((part) => part.type === 'file')
}

async function createAssistantMessage(
  store: StoreContext,
  session: SessionInfo,
  parentID: string,
  agent: string,
  resolved: ResolvedModel,
): Promise<AssistantMessage> {
  const now = store.now()
  const assistant: AssistantMessage = {
    id: ascending('message', now),
    sessionID: session.id,
    role: 'assistant',
    time: { created: now },
    parentID,
    modelID: resolved.modelID,
    providerID: resolved.providerID,
    agent,
    mode: agent,
    path: { cwd: session.directory, root: session.directory },
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  }
  await updateMessage(store, assistant)
  return assistant
}

interface StepInput {
  sessionID: string
  assistant: AssistantMessage
  resolved: ResolvedModel
  system: string
  messages: ModelMessage[]
  signal: AbortSignal
  snapshots: StepSnapshots
  /** The step's tools, bound to the processor that reports their progress. */
  tools: (processor: StepProcessor) => StepTools
}

/** The summariser has no tools: a call it makes anyway fails, and the summary is whatever text it wrote. */
const NO_TOOLS: StepTools = {
  definitions: [],
  resolve: (call) => ({ toolName: call.toolName, input: call.input }),
  run: async () => {
    throw new Error('No tools are available while the conversation is summarised.')
  },
}

/** The summary's model call: streamed and recorded like any step, without tools, snapshots or a patch. */
function runSummaryStep(
  dependencies: LoopDependencies,
  input: { sessionID: string; assistant: AssistantMessage; resolved: ResolvedModel; system: string; messages: ModelMessage[]; signal: AbortSignal },
): Promise<{ error?: MessageError }> {
  return runStepWithRetry(dependencies, { ...input, snapshots: {}, tools: () => NO_TOOLS })
}

/** One model call, retried on retryable errors with the provider's delay, up to the configured number of attempts. */
async function runStepWithRetry(dependencies: LoopDependencies, input: StepInput): Promise<{ error?: MessageError; blocked: boolean; after?: string }> {
  const { store } = dependencies
  const limit = await dependencies.retryLimit()
  for (let attempt = 1; ; attempt++) {
    const writer = new PartWriter(store, dependencies.metrics ? { metrics: dependencies.metrics } : {})
    dependencies.onWriter?.(writer)
    const processor = new StepProcessor(store, writer, input.assistant, input.resolved.cost, input.snapshots)
    const events = streamModelCall({
      model: resolveLanguageModel(input.resolved.model),
      system: input.system,
      messages: input.messages,
      tools: processor.tracking(input.tools(processor)),
      maxOutputTokens: maxOutputTokens(input.resolved.limit),
      cacheKey: input.sessionID,
      // A write storage refuses ends the call at once: what streams on could not be kept.
      abortSignal: AbortSignal.any([input.signal, writer.refused]),
    })
    const outcome = await processor.process(events, input.signal)
    await writer.flush()
    dependencies.onWriter?.(undefined)
    const error = outcome.error && redactError(outcome.error, input.resolved.redact)
    const after = processor.after ? { after: processor.after } : {}
    if (!error) return { blocked: processor.blocked, ...after }
    const reason = retryReason(error)
    if (!reason || input.signal.aborted) return { error, blocked: processor.blocked, ...after }
    if (attempt > limit) {
      const gaveUp = {
        name: error.name === 'APIError' ? 'APIError' : 'UnknownError',
        data: {
          ...(error.name === 'APIError' ? error.data : {}),
          message: `Gave up after ${limit} ${limit === 1 ? 'retry' : 'retries'}: ${error.data.message}`,
          isRetryable: false,
        },
      } as MessageError
      return { error: gaveUp, blocked: false }
    }
    const delay = retryDelay(attempt, error, store.now())
    dependencies.setStatus(input.sessionID, { type: 'retry', attempt, message: reason, next: store.now() + delay })
    try {
      await dependencies.sleep(delay, input.signal)
    } catch {
      return { error: { name: 'MessageAbortedError', data: { message: 'Stopped by the user' } }, blocked: false }
    }
    dependencies.setStatus(input.sessionID, { type: 'busy' })
  }
}

/** Every string of an error, through the provider's redaction: what is stored and shown never holds its key. */
function redactError(error: MessageError, redact: ((text: string) => string) | undefined): MessageError {
  if (!redact) return error
  const clean = (value: unknown): unknown =>
    typeof value === 'string'
      ? redact(value)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clean(inner)]))
        : value
  return clean(error) as MessageError
}

/**
 * A subagent's turn (the task tool): a child session of the calling one, with the subagent's agent and the caller's
 * model, run to completion inline. Aborting the parent aborts it (same signal); its final text is the result.
 */
async function runSubtask(
  dependencies: LoopDependencies,
  request: SubtaskRequest,
  parent: SessionInfo,
  signal: AbortSignal,
): Promise<SubtaskResult> {
  const { store } = dependencies
  const parentHistory = await loadHistory(store, parent.id)
  const agent = await agentFor(store, request.agent)
  const model = agent.model ?? (lastOf(parentHistory, 'user')?.info as { model?: ModelReference } | undefined)?.model
  if (!model) throw new Error('The subagent has no model to run with.')
  const existing = request.sessionID ? await findSession(store, request.sessionID) : undefined
  const child =
    existing && existing.parentID === parent.id
      ? existing
      : await createSession(store, {
          projectID: parent.projectID,
          parentID: parent.id,
          title: `${request.description} (@${request.agent} subagent)`,
          // As opencode: the child keeps the parent's denials and gets no todo list or nested subagents of its own.
          permission: subagentSessionRules(parent.permission ?? [], agent.permission),
        })
  await createUserMessage(store, { sessionID: child.id, parts: [{ type: 'text', text: request.prompt }], model, agent: request.agent })
  await runLoop(dependencies, child.id, { signal })
  if (signal.aborted) throw Object.assign(new Error('The subagent was stopped'), { name: 'AbortError' })
  const history = await loadHistory(store, child.id)
  const last = lastOf(history, 'assistant')
  const info = last?.info as AssistantMessage | undefined
  if (info?.error) throw new Error(`The subagent failed: ${'message' in info.error.data ? String(info.error.data.message) : info.error.name}`)
  const output = (last?.parts ?? []).flatMap((part) => (part.type === 'text' && !part.synthetic ? [part.text] : [])).join('\n').trim()
  return { sessionID: child.id, output, model }
}

/** Names a root session from its first real prompt, in the background, with the small model when there is one. */
async function generateTitle(
  dependencies: LoopDependencies,
  session: SessionInfo,
  history: Awaited<ReturnType<typeof loadHistory>>,
  fallback: ResolvedModel,
): Promise<void> {
  if (session.parentID || !isDefaultTitle(session.title)) return
  const first = firstRealUserMessage(history)
  if (!first) return
  const small = await dependencies.models.smallModel({ providerID: fallback.providerID, modelID: fallback.modelID })
  const resolved = small ? await dependencies.models.resolve(small).catch(() => fallback) : fallback
  const result = streamText({
    model: resolved.model,
    system: TITLE_PROMPT,
    messages: [
      { role: 'user', content: 'Generate a title for this conversation:\n' },
      ...toModelMessages([first], { providerID: resolved.providerID, modelID: resolved.modelID }),
    ],
    maxRetries: 2,
    maxOutputTokens: 200,
    // The SDK's default logs the raw error, whose body may echo the key.
    onError: ({ error }) => log.warn('tabcode: could not name the session', error),
  })
  const title = cleanTitle(await result.text)
  if (!title) return
  const current = await getSession(dependencies.store, session.id)
  // The user may have renamed it meanwhile; their title wins.
  if (isDefaultTitle(current.title)) await setTitle(dependencies.store, session.id, title)
}

export const sleepWithSignal = (milliseconds: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, milliseconds)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
