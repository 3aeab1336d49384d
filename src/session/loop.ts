import { resolveLanguageModel } from 'ai/internal'
import { log } from '../core/log'
import { getSettings } from '../store/provider-store'
import { agentFor, loadAgents } from '../store/agent-settings'
import { agentNamed, subagents, type Agent } from '../core/agent'
import { DEFAULT_SUBAGENTS } from '../tools/task'
import { evaluate } from '../core/permission/evaluate'
import { projectAgentsOf } from './project-agents'
import { isCompletedSummary, isRealUser, isSummary, pendingMarker } from '../core/compaction/markers'
import { countTokens, isOverflow, usableTokens, type ModelLimit } from '../core/compaction/overflow'
import { processCompaction } from './compaction/process'
import { presendVerdict, requestTokens } from './compaction/presend'
import { overflowWithoutAuto, promptTooLarge, stillOverflowing } from '../core/compaction/prompt'
import { pruneSession } from './compaction/prune'
import { buildRequest } from './compaction/request'
import { createCompactionMarker } from '../store/compaction-store'
import type { StoreContext } from '../store/context'
import { lastOf, stepHistory, turnIsDone } from '../core/history'
import { modelForPrompt } from '../core/settings'
import { ascending } from '../core/id'
import { updateMessage, type MessageWithParts } from '../store/message-store'
import { loadRecentHistory, type RecentHistory } from '../store/recent-history'
import type { StepSnapshots } from './processor'
import { createUserMessage, takeQueuedPrompt } from '../store/prompt'
import type { AssistantMessage, MessageError, ModelReference, SessionInfo, UserMessage } from '../core/schema'
import { getSession } from '../store/session-store'
import type { FileTimes, SubtaskRequest } from '../core/ports'
import {
  compactionEndedTurn,
  inboxEmpty,
  modelUnresolved,
  newestIsNotPrompt,
  queuedWithoutModel,
  requestRefused,
  stepFailed,
  stopError,
  userRejected,
  type StopReason,
} from '../core/stop'
import type { ToolRegistry } from '../tools/registry'
import { withMcpDefaults } from '../core/mcp'
import type { McpHub } from '../mcp/hub'
import type { ModelSource, ResolvedModel } from './model-source'
import { runStepWithRetry, runSummaryStep, type StepDependencies } from './retry-step'
import { runSubtask } from './subtask'
import { generateTitle } from './title'
import type { PermissionGate, SnapshotSource, WorkspaceSource } from './turn-services'
import { loadAttachments } from './prompt-attachments'
import {
  offeredDefinitions,
  projectInstructions,
  recordDiffs,
  recordPatch,
  stepTools,
  snapshotMemo,
  turnToolCalls,
  type TurnContext,
} from './turn-tools'

export { OUTPUT_TOKEN_MAX } from '../core/compaction/overflow'

export interface LoopDependencies extends StepDependencies {
  models: ModelSource
  tools: ToolRegistry
  /** The projects' workspaces. */
  workspaces: WorkspaceSource
  /** Without one, every request is allowed. */
  permissions?: PermissionGate
  /** Without one, steps take no snapshots and turns record no diffs. */
  snapshots?: SnapshotSource
  /** What each session has read (write and edit refuse stale files); kept by the owner for the worker's life. */
  fileTimes: (sessionID: string) => FileTimes
  /** The compaction settings; read from the stored settings when not given. */
  compaction?: () => Promise<CompactionSettings>
  /** Remote MCP servers' tools; without it, a turn has only the built-in tools. */
  mcp?: Pick<McpHub, 'tools'>
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
export async function runLoop(dependencies: LoopDependencies, sessionID: string, options: LoopOptions): Promise<StopReason | undefined> {
  const { store } = dependencies
  const { signal } = options
  let resume = options.resume ?? false
  let step = 0
  // Busy only once there is work: a run that finds the turn already answered leaves the status alone.
  let busy = false
  let settings: CompactionSettings | undefined
  // Set by the first stop condition that answers; undefined when the run was aborted.
  let stop: StopReason | undefined
  // The read that found the turn done with nothing queued: the turn's end works from it instead of reading again
  // (the loop writes nothing after it; a prompt another tab stores meanwhile belongs to the next turn).
  let settled: RecentHistory | undefined
  // The task tool's subagents run through this same loop, each in its child session.
  const runChild = (request: SubtaskRequest, parent: SessionInfo, childSignal: AbortSignal) =>
    runSubtask(dependencies, request, parent, childSignal, (childID, loopSignal) => runLoop(dependencies, childID, { signal: loopSignal }))
  const snapshots = snapshotMemo(dependencies)
  const reads = turnReads(dependencies, sessionID)
  // The steps' model calls take the turn's retry limit from the same reads.
  const stepDependencies: LoopDependencies = { ...dependencies, retryLimit: reads.retryLimit }
  try {
    while (!signal.aborted) {
      // From the last compaction boundary: a step costs what the history since then costs, not the session.
      const recent = await loadRecentHistory(store, sessionID)
      const stored = recent.history
      if (turnIsDone(stored, { resume })) {
        const next = await takeQueuedPrompt(store, sessionID)
        if ((stop = inboxEmpty({ queued: next }))) {
          settled = recent
          break
        }
        const queued = next!
        const lastUser = lastOf(stored, 'user')?.info as { model?: ModelReference } | undefined
        const model = modelForPrompt({ explicit: queued.model, lastUser, session: await getSession(store, sessionID), settings: await getSettings(store) })
        if ((stop = queuedWithoutModel({ model }))) break
        await createUserMessage(store, { sessionID, parts: queued.parts, model: model!, ...(queued.agent ? { agent: queued.agent } : {}) })
        step = 0
        reads.reset()
        continue
      }
      const resuming = resume
      resume = false
      // The step answers the newest prompt of what it sends, and its reply names that prompt as its parent.
      const history = stepHistory(stored)
      const newest = lastOf(history, 'user')
      if ((stop = newestIsNotPrompt({ newest }))) break
      // Only a user's message gets past the condition above.
      const user = newest as MessageWithParts & { info: UserMessage }
      if (!busy) dependencies.setStatus(sessionID, { type: 'busy' })
      busy = true
      settings = await reads.settings()
      const session = await reads.session()

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
        if ((stop = compactionEndedTurn(result))) break
        continue
      }

      const resolution: { resolved?: ResolvedModel; error?: MessageError } = await reads.model(user.info.model).then(
        (resolved) => ({ resolved }),
        (error: unknown) => ({ error: unknownError(error) }),
      )
      if ((stop = modelUnresolved(resolution))) break
      const { resolved } = resolution as { resolved: ResolvedModel }
      const compacted = justCompacted(history)
      if (settings.auto && !compacted && lastFinishedOverflows(history, resolved.limit)) {
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true })
        continue
      }
      const agents = await reads.agents()
      const agent = agentNamed(user.info.agent, agents)
      const lastStep = agent.steps !== undefined && step + 1 >= agent.steps
      const workspace = await dependencies.workspaces.get(session.projectID)
      const status = dependencies.workspaces.status(session.projectID)
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
        attachments: await loadAttachments(store, history),
      })
      // A failing server adds no tools (its status in Settings says why); it never stops the turn.
      const extra = dependencies.mcp ? await dependencies.mcp.tools(agent.name).catch(() => []) : []
      const turnDependencies = extra.length ? { ...dependencies, tools: dependencies.tools.with(extra) } : dependencies
      const turn: TurnContext = {
        session,
        agent: agent.name,
        agentRules: extra.length ? withMcpDefaults(agent, extra.map((tool) => tool.id)) : agent.permission,
        // opencode's task tool lists the subagents its caller's rules do not deny outright.
        subagents: subagents(agents)
          .filter((candidate) => evaluate('task', candidate.name, agent.permission).action !== 'deny')
          .map((candidate) => ({ name: candidate.name, description: subagentDescription(candidate) })),
        workspace,
        calls: turnToolCalls(history),
        signal,
      }
      const estimate = requestTokens({ system, messages, tools: offeredDefinitions(turnDependencies, turn) })
      const presend = presendVerdict({ estimate, limit: resolved.limit, auto: settings.auto, compacted, onlyPrompt: isOnlyTextPrompt(history) })
      if (presend.action === 'compact') {
        // Before a prompt is answered, as a provider overflow would: the prompt is replayed after the summary. Within
        // a turn, as a step's usage would: its steps so far are summarised too, and the turn continues.
        const overflow = history.at(-1)?.info.role === 'user'
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true, ...(overflow ? { overflow } : {}) })
        continue
      }
      const refusal = requestRefused(presend)
      if (refusal) {
        const refused = await createAssistantMessage(store, session, user.info.id, user.info.agent, resolved)
        refused.error = refusal.error
        refused.finish = 'error'
        refused.time.completed = store.now()
        await updateMessage(store, refused)
        stop = refusal
        break
      }
      step++
      if (step === 1) void generateTitle(dependencies, session, history, resolved).catch(() => {})

      const before = await snapshots.track(session.projectID, workspace)
      const assistant = await createAssistantMessage(store, session, user.info.id, user.info.agent, resolved)
      const stepSnapshots: StepSnapshots = {
        ...(before ? { before } : {}),
        // A step whose tools cannot change files ends where it began: no second walk of the workspace per step.
        after: (called) =>
          before && called.every((tool) => FILE_PRESERVING_TOOLS.has(tool)) ? Promise.resolve(before) : snapshots.track(session.projectID, workspace, { fresh: true }),
      }
      const sampling = {
        ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
        ...(agent.topP !== undefined ? { topP: agent.topP } : {}),
      }
      const call = { sessionID, assistant, resolved, system, messages, signal, snapshots: stepSnapshots, ...sampling }
      const { error, blocked, after } = await runStepWithRetry(stepDependencies, {
        ...call,
        tools: (processor) => stepTools(turnDependencies, { ...call, turn }, processor, runChild),
      })
      // The processor stored the message completed with the step's finish, unless the stream ended otherwise.
      const storedComplete = assistant.time.completed !== undefined
      if (!storedComplete) assistant.time.completed = store.now()
      const verdict = overflowVerdict({ error, blocked, assistant, settings, compacted, limit: resolved.limit, onlyPrompt: isOnlyTextPrompt(history) })
      const final = verdict.error ?? error
      if (final) {
        assistant.error = final
        // Unlike opencode (only for overflows it cannot compact), every errored turn is marked finish: error.
        if (!assistant.finish || error) assistant.finish = 'error'
      }
      if (final || !storedComplete) await updateMessage(store, assistant)
      await recordPatch(dependencies, assistant, before, after)
      if (verdict.compact === 'overflow') {
        await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true, overflow: true })
        continue
      }
      if (verdict.compact === 'usage') {
        // A reply that ends the turn is left alone: the next prompt compacts first (the check before a step).
        if (!turnIsDone((await loadRecentHistory(store, sessionID)).history)) {
          await createCompactionMarker(store, { sessionID, agent: user.info.agent, model: user.info.model, auto: true })
        }
        continue
      }
      if ((stop = stepFailed({ error: final }))) break
      // The next prompt starts afresh.
      if ((stop = userRejected({ blocked }))) break
    }
    const shown = stop && stopError(stop)
    if (shown) store.emit({ type: 'session.error', sessionID, error: shown })
    return stop
  } finally {
    snapshots.close()
    // Only a run that took steps can have changed the turn's files.
    if (busy) await recordDiffs(dependencies, sessionID, settled).catch((error: unknown) => log.warn('tabcode: could not record the diffs of the turn', error))
    if (busy) dependencies.setStatus(sessionID, { type: 'idle' })
    // In the background, once the session is idle: nobody waits for it, and the session is free for the user's next
    // action (a history operation refused as busy right after "idle" would look broken). It touches only the
    // outputs of older turns, which no step writes.
    if (busy && settings?.prune) void pruneSession(store, sessionID, settled).catch((error: unknown) => log.warn('tabcode: could not prune old tool outputs', error))
  }
}

/**
 * What every step of a turn reads the same: the compaction settings, the retry limit, the session, the agent and
 * the resolved model, read by the first step that needs each and shared by the turn's other steps (a 20-step turn
 * made seven small transactions per step for them). A new turn (a queued prompt promoted) reads them afresh, so a
 * change in Settings applies from the next turn on, as a change of model in the prompt box does; a steering prompt
 * with another model or agent is read for itself. A failed read is not kept: the next step tries again.
 */
function turnReads(dependencies: LoopDependencies, sessionID: string) {
  let memo = new Map<string, Promise<unknown>>()
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let value = memo.get(key) as Promise<T> | undefined
    if (!value) {
      const table = memo
      value = read()
      value.catch(() => table.get(key) === value && table.delete(key))
      memo.set(key, value)
    }
    return value
  }
  return {
    reset: () => void (memo = new Map()),
    settings: () => once('settings', () => compactionSettings(dependencies)),
    retryLimit: () => once('retry', () => dependencies.retryLimit()),
    session: () => once('session', () => getSession(dependencies.store, sessionID)),
    // With the project's agent files, read from its workspace (a file edited mid-turn counts from the next turn).
    agents: () =>
      once('agents', async () => {
        const { projectID } = await getSession(dependencies.store, sessionID)
        return loadAgents(dependencies.store, await projectAgentsOf(dependencies.store, projectID, () => dependencies.workspaces.get(projectID)))
      }),
    model: (reference: ModelReference) =>
      once(`model\u0000${reference.providerID}\u0000${reference.modelID}`, () => dependencies.models.resolve(reference)),
  }
}

/**
 * Tools that never change the workspace's files. A user's own edit during such a step is not lost: the next step's
 * start snapshot (and so its patch and the turn's diffs from then on) still sees it.
 */
export const FILE_PRESERVING_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'glob', 'list', 'webfetch', 'todowrite', 'invalid'])

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

/** The check before a step: the newest finished reply, unless it is a summary, used too much of the context. */
function lastFinishedOverflows(history: MessageWithParts[], limit: ModelLimit): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (entry.info.role !== 'assistant' || !entry.info.finish) continue
    return !isSummary(entry) && isOverflow({ tokens: entry.info.tokens, limit, auto: true })
  }
  return false
}

/**
 * What a finished step's size means (bounded). A provider overflow compacts (`overflow`: the prompt
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

function isOnlyTextPrompt(history: MessageWithParts[]): boolean {
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

/** A built-in subagent as opencode's task tool describes it; another (or one a project file changed) by its own words. */
function subagentDescription(agent: Agent): string {
  const builtIn = agent.path || agent.source ? undefined : DEFAULT_SUBAGENTS.find((candidate) => candidate.name === agent.name)
  return builtIn?.description ?? agent.description
}
