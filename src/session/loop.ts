import { streamText, type LanguageModel, type ModelMessage } from 'ai'
import { resolveLanguageModel } from 'ai/internal'
import { MAX_STEPS_PROMPT } from './agent'
import { agentFor } from './agent-settings'
import type { StoreContext } from './context'
import type { SessionStatus } from './event'
import { lastOf, loadHistory, turnIsDone } from './history'
import { ascending } from './id'
import { updateMessage } from './message-store'
import { streamModelCall } from './model-call'
import { toModelMessages } from './model-messages'
import { PartWriter, type WriterMetrics } from './part-writer'
import { StepProcessor, type StepSnapshots } from './processor'
import { createUserMessage, takeQueuedPrompt } from './prompt'
import { retryDelay, retryReason } from './retry'
import type { AssistantMessage, MessageError, ModelReference, SessionInfo } from './schema'
import { createSession, getSession, setTitle } from './session-store'
import { systemPrompt } from './system-prompt'
import { cleanTitle, firstRealUserMessage, TITLE_PROMPT } from './title-generation'
import { isDefaultTitle } from './title'
import type { Prices } from './usage'
import type { ToolRegistry } from '../tool/registry'
import type { FileTimes, SubtaskRequest } from '../tool/tool'
import type { PermissionGate, SnapshotSource, WorkspaceSource } from './turn-services'
import {
  projectInstructions,
  recordDiffs,
  recordPatch,
  stepTools,
  trackSnapshot,
  turnToolCalls,
  workspaceOf,
  type TurnContext,
} from './turn-tools'

/** Output tokens asked for per call, at most (opencode's OUTPUT_TOKEN_MAX). */
export const OUTPUT_TOKEN_MAX = 32_000

export interface ResolvedModel {
  model: LanguageModel
  providerID: string
  modelID: string
  limit: { context: number; output: number }
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
 * stream in flight. One iteration is one model call and one assistant message. When the turn is done, prompts
 * queued behind it are promoted one at a time, each starting a fresh turn.
 */
export async function runLoop(dependencies: LoopDependencies, sessionID: string, options: LoopOptions): Promise<void> {
  const { store } = dependencies
  const { signal } = options
  let resume = options.resume ?? false
  let step = 0
  // Busy only once there is work: a run that finds the turn already answered leaves the status alone.
  let busy = false
  try {
    while (!signal.aborted) {
      const history = await loadHistory(store, sessionID)
      if (turnIsDone(history, { resume })) {
        const queued = await takeQueuedPrompt(store, sessionID)
        if (!queued) break
        const model = queued.model ?? (lastOf(history, 'user')?.info as { model?: ModelReference } | undefined)?.model
        if (!model) break
        await createUserMessage(store, { sessionID, parts: queued.parts, model, ...(queued.agent ? { agent: queued.agent } : {}) })
        step = 0
        continue
      }
      resume = false
      const user = lastOf(history, 'user')
      if (!user || user.info.role !== 'user') break
      if (!busy) dependencies.setStatus(sessionID, { type: 'busy' })
      busy = true
      step++
      const session = await getSession(store, sessionID)
      let resolved: ResolvedModel
      try {
        resolved = await dependencies.models.resolve(user.info.model)
      } catch (error) {
        store.emit({
          type: 'session.error',
          sessionID,
          error: { name: 'UnknownError', data: { message: error instanceof Error ? error.message : String(error) } },
        })
        break
      }
      if (step === 1) void generateTitle(dependencies, session, history, resolved).catch(() => {})

      const agent = await agentFor(store, user.info.agent)
      const lastStep = agent.steps !== undefined && step >= agent.steps
      const workspace = await workspaceOf(dependencies, session.projectID)
      const status = dependencies.workspaces?.status(session.projectID) ?? { backend: 'local' as const }
      const before = await trackSnapshot(dependencies, session.projectID, workspace)
      const assistant = await createAssistantMessage(store, session, user.info.id, user.info.agent, resolved)
      const messages: ModelMessage[] = toModelMessages(history, user.info.model)
      if (lastStep) messages.push({ role: 'assistant', content: MAX_STEPS_PROMPT })
      const system = systemPrompt(
        agent,
        {
          providerID: resolved.providerID,
          modelID: resolved.modelID,
          directory: workspace.root,
          backend: status.backend,
          ...(status.reason ? { backendReason: status.reason } : {}),
          now: store.now(),
        },
        { ...(await projectInstructions(workspace)), ...previousAgentOf(history) },
      )
      const turn: TurnContext = {
        session,
        agent: agent.name,
        agentRules: agent.permission,
        workspace,
        calls: turnToolCalls(history),
        signal,
      }
      const snapshots: StepSnapshots = {
        ...(before ? { before } : {}),
        after: () => trackSnapshot(dependencies, session.projectID, workspace),
      }

      const { error, blocked, after } = await runStepWithRetry(dependencies, { sessionID, assistant, resolved, system, messages, signal, turn, snapshots })
      assistant.time.completed = store.now()
      if (error) {
        assistant.error = error
        if (!assistant.finish) assistant.finish = 'error'
      }
      await updateMessage(store, assistant)
      await recordPatch(dependencies, assistant, before, after)
      if (error) {
        if (error.name !== 'MessageAbortedError') store.emit({ type: 'session.error', sessionID, error })
        break
      }
      // The user rejected a permission: the turn ends here, as in opencode; the next prompt starts afresh.
      if (blocked) break
    }
  } finally {
    // Only a run that took steps can have changed the turn's files.
    if (busy) await recordDiffs(dependencies, sessionID).catch((error: unknown) => console.warn('tabcode: could not record the diffs of the turn', error))
    if (busy) dependencies.setStatus(sessionID, { type: 'idle' })
  }
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
  turn: TurnContext
  snapshots: StepSnapshots
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
      tools: stepTools(dependencies, input, processor, (request, parent, signal) => runSubtask(dependencies, request, parent, signal)),
      maxOutputTokens: Math.min(input.resolved.limit.output, OUTPUT_TOKEN_MAX),
      abortSignal: input.signal,
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

/** The agent of the last reply before this turn, so switching from plan to build can be told to the model. */
function previousAgentOf(history: Awaited<ReturnType<typeof loadHistory>>): { previousAgent?: string } {
  let seenUser = false
  for (let index = history.length - 1; index >= 0; index--) {
    const info = history[index]!.info
    if (info.role === 'user') seenUser = true
    else if (seenUser) return { previousAgent: info.agent }
  }
  return {}
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
): Promise<{ sessionID: string; output: string }> {
  const { store } = dependencies
  const parentHistory = await loadHistory(store, parent.id)
  const agent = await agentFor(store, request.agent)
  const model = agent.model ?? (lastOf(parentHistory, 'user')?.info as { model?: ModelReference } | undefined)?.model
  if (!model) throw new Error('The subagent has no model to run with.')
  const existing = request.sessionID ? await store.db.sessions.get(request.sessionID) : undefined
  const child =
    existing && existing.parentID === parent.id
      ? existing
      : await createSession(store, { projectID: parent.projectID, parentID: parent.id, title: `${request.description} (@${request.agent} subagent)` })
  await createUserMessage(store, { sessionID: child.id, parts: [{ type: 'text', text: request.prompt }], model, agent: request.agent })
  await runLoop(dependencies, child.id, { signal })
  if (signal.aborted) throw Object.assign(new Error('The subagent was stopped'), { name: 'AbortError' })
  const history = await loadHistory(store, child.id)
  const last = lastOf(history, 'assistant')
  const info = last?.info as AssistantMessage | undefined
  if (info?.error) throw new Error(`The subagent failed: ${'message' in info.error.data ? String(info.error.data.message) : info.error.name}`)
  const output = (last?.parts ?? []).flatMap((part) => (part.type === 'text' && !part.synthetic ? [part.text] : [])).join('\n').trim()
  return { sessionID: child.id, output }
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
