import { log } from '../core/log'
import { pendingMarker } from '../core/compaction/markers'
import { lastOf, stepHistory, turnIsDone } from '../core/history'
import type { FileTimes, SubtaskRequest, SubtaskResult } from '../core/ports'
import type { MessageError, SessionInfo, UserMessage } from '../core/schema'
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
import { agentFor } from '../store/agent-settings'
import type { MessageWithParts } from '../store/message-store'
import { loadRecentHistory, type RecentHistory } from '../store/recent-history'
import type { ToolRegistry } from '../tools/registry'
import type { McpHub } from '../mcp/hub'
import { presendVerdict, requestTokens } from './compaction/presend'
import { processCompaction, type TailSettings } from './compaction/process'
import { pruneSession } from './compaction/prune'
import { isOnlyTextPrompt, justCompacted, lastFinishedOverflows, overflowVerdict } from './compaction/verdict'
import { closeReply, openReply, refuseReply, requestCompaction, storeNextPrompt, takeNextPrompt } from './loop-store'
import type { ModelSource, ResolvedModel } from './model-source'
import type { StepSnapshots } from './processor'
import { runStepWithRetry, runSummaryStep, type StepDependencies } from './retry-step'
import { stepRequest, type StepRequest } from './step-request'
import { runSubtask } from './subtask'
import { generateTitle } from './title'
import { keptFrom, withReply, type KeptHistory } from './kept-history'
import { turnReads, type CompactionSettings, type TurnReads } from './turn-reads'
import type { PermissionGate, SnapshotSource, WorkspaceSource } from './turn-services'
import { offeredDefinitions, recordDiffs, recordPatch, snapshotMemo, stepTools } from './turn-tools'

export { OUTPUT_TOKEN_MAX } from '../core/compaction/overflow'
export type { CompactionSettings } from './turn-reads'

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
  mcp?: Pick<McpHub, 'tools' | 'servers'>
}

export interface LoopOptions {
  signal: AbortSignal
  /** Run a step even though the last turn ended in an error (the "retry" action). */
  resume?: boolean
}

/** What a phase of an iteration says: the run stops for this reason, or goes on with the next iteration. */
type Next = StopReason | 'continue'

/** One run of the loop: what its iterations share. */
interface LoopRun {
  dependencies: LoopDependencies
  sessionID: string
  signal: AbortSignal
  /** The loop's dependencies for the steps' model calls: the turn's retry limit comes from the turn's reads. */
  stepDependencies: LoopDependencies
  reads: TurnReads
  snapshots: ReturnType<typeof snapshotMemo>
  /** The task tool's subagents run through this same loop, each in its child session. */
  runChild: (request: SubtaskRequest, parent: SessionInfo, signal: AbortSignal) => Promise<SubtaskResult>
  /** The next iteration runs a step even though the turn ended in an error (only the first may). */
  resume: boolean
  /** The steps the current turn has taken. */
  step: number
  /** Busy only once there is work: a run that finds the turn already answered leaves the status alone. */
  busy: boolean
  /** The settings of the newest iteration that had work; the run's end prunes by them. */
  settings?: CompactionSettings
  /**
   * The read that found the turn done with nothing queued: the turn's end works from it instead of reading again
   * (the loop writes nothing after it; a prompt another tab stores meanwhile belongs to the next turn).
   */
  settled?: RecentHistory
  /** The history after the last step, kept in memory when the turn goes on from it (`kept-history.ts`). */
  kept?: KeptHistory | undefined
}

/** The newest prompt of the history a step would send, and what the iteration read to answer it. */
interface PromptTurn {
  session: SessionInfo
  history: MessageWithParts[]
  user: UserMessage
  settings: CompactionSettings
  /** The history decided from, as kept for the next step; with replies kept in memory when it was not read. */
  kept: KeptHistory | undefined
}

/** A step about to answer the prompt, past the model's resolution. */
interface StepPlan extends PromptTurn {
  resolved: ResolvedModel
  /** The step is the first after a compaction. */
  compacted: boolean
}

/**
 * opencode's step loop. Each iteration decides from the history as stored: read afresh, or, for a step that goes
 * on from the one before, that read with the replies the loop stored since (`kept-history.ts`; the reply is stored
 * only if nothing else came in meanwhile, else the step reads afresh). A prompt stored by another tab is answered at
 * the next step, and a reload loses nothing but the stream in flight. One iteration is
 * one model call and one assistant message: a step of the turn, or the summary that answers a compaction marker.
 * When the turn is done, prompts queued behind it are promoted one at a time, each starting a fresh turn; when the
 * loop is done, old tool outputs are pruned.
 *
 * An iteration goes through phases, each of which ends it with a stop reason (`core/stop.ts`) or `continue`: the
 * turn read (`iterate`), the next queued prompt (`nextPrompt`), a pending compaction (`summarize`), the checks before
 * a step (`checkBeforeStep`, `presend`), the step (`takeStep`) and what its outcome asks for (`afterStep`).
 *
 * Compaction is bounded, unlike opencode's: at most one per overflow. When the first step after a summary is still
 * over the context (by the provider's word or by its usage), the turn ends with an error that says what to do next.
 */
export async function runLoop(dependencies: LoopDependencies, sessionID: string, options: LoopOptions): Promise<StopReason | undefined> {
  const run = startRun(dependencies, sessionID, options)
  try {
    // Set by the first stop condition that answers; undefined when the run was aborted.
    let stop: StopReason | undefined
    while (!run.signal.aborted) {
      const next = await iterate(run)
      if (next === 'continue') continue
      stop = next
      break
    }
    const shown = stop && stopError(stop)
    if (shown) dependencies.store.emit({ type: 'session.error', sessionID, error: shown })
    return stop
  } finally {
    await endRun(run)
  }
}

function startRun(dependencies: LoopDependencies, sessionID: string, options: LoopOptions): LoopRun {
  const runChild = (request: SubtaskRequest, parent: SessionInfo, childSignal: AbortSignal) =>
    runSubtask(dependencies, request, parent, childSignal, (childID, loopSignal) => runLoop(dependencies, childID, { signal: loopSignal }))
  const snapshots = snapshotMemo(dependencies)
  const reads = turnReads(dependencies, sessionID)
  return {
    dependencies,
    sessionID,
    signal: options.signal,
    stepDependencies: { ...dependencies, retryLimit: reads.retryLimit },
    reads,
    snapshots,
    runChild,
    resume: options.resume ?? false,
    step: 0,
    busy: false,
  }
}

async function endRun(run: LoopRun): Promise<void> {
  const { dependencies, sessionID, busy, settled } = run
  run.snapshots.close()
  // Only a run that took steps can have changed the turn's files.
  if (busy) await recordDiffs(dependencies, sessionID, settled).catch((error: unknown) => log.warn('tabcode: could not record the diffs of the turn', error))
  if (busy) dependencies.setStatus(sessionID, { type: 'idle' })
  // In the background, once the session is idle: nobody waits for it, and the session is free for the user's next
  // action (a history operation refused as busy right after "idle" would look broken). It touches only the
  // outputs of older turns, which no step writes.
  if (busy && run.settings?.prune) void pruneSession(dependencies.store, sessionID, settled).catch((error: unknown) => log.warn('tabcode: could not prune old tool outputs', error))
}

/** An iteration: the history read afresh, then the turn's end, a pending compaction, or a step. */
async function iterate(run: LoopRun): Promise<Next> {
  const { dependencies, sessionID } = run
  // A step that goes on from the one before decides from the history kept in memory (its reply is stored only if
  // nothing else came in meanwhile); a turn that looks done there is read afresh before it ends.
  let kept = run.kept
  run.kept = undefined
  if (kept && turnIsDone(kept.recent.history)) kept = undefined
  // From the last compaction boundary: a step costs what the history since then costs, not the session.
  const recent = kept?.recent ?? (await loadRecentHistory(dependencies.store, sessionID))
  kept ??= keptFrom(recent)
  if (turnIsDone(recent.history, { resume: run.resume })) return nextPrompt(run, recent)
  const resuming = run.resume
  run.resume = false
  // The step answers the newest prompt of what it sends, and its reply names that prompt as its parent.
  const history = stepHistory(recent.history)
  const newest = lastOf(history, 'user')
  const noPrompt = newestIsNotPrompt({ newest })
  if (noPrompt) return noPrompt
  // Only a user's message gets past the condition above.
  const user = (newest as MessageWithParts & { info: UserMessage }).info
  if (!run.busy) dependencies.setStatus(sessionID, { type: 'busy' })
  run.busy = true
  const settings = (run.settings = await run.reads.settings())
  const session = await run.reads.session()
  const marker = pendingMarker(history, { resume: resuming })
  if (marker) return summarize(run, { session, history, marker, tail: tailSettings(settings) })
  return checkBeforeStep(run, { session, history, user, settings, kept })
}

/** The turn is done: the prompt queued behind it starts a fresh turn, or the run ends with nothing to answer. */
async function nextPrompt(run: LoopRun, recent: RecentHistory): Promise<Next> {
  const { store } = run.dependencies
  const next = await takeNextPrompt(store, run.sessionID, recent.history)
  const empty = inboxEmpty({ queued: next })
  if (empty) {
    run.settled = recent
    return empty
  }
  const { queued, model } = next!
  const withoutModel = queuedWithoutModel({ model })
  if (withoutModel) return withoutModel
  await storeNextPrompt(store, run.sessionID, queued, model!)
  run.step = 0
  run.reads.reset()
  return 'continue'
}

/** What the summary leaves verbatim, from Settings → Context. */
function tailSettings(settings: CompactionSettings): TailSettings {
  return {
    ...(settings.tailTurns !== undefined ? { turns: settings.tailTurns } : {}),
    ...(settings.preserveRecentTokens !== undefined ? { preserveRecentTokens: settings.preserveRecentTokens } : {}),
  }
}

/** A compaction marker waits: this iteration's model call writes its summary. */
async function summarize(run: LoopRun, input: { session: SessionInfo; history: MessageWithParts[]; marker: MessageWithParts; tail: TailSettings }): Promise<Next> {
  const { dependencies, sessionID, signal } = run
  const { store } = dependencies
  const result = await processCompaction(
    {
      store,
      resolve: (reference) => dependencies.models.resolve(reference),
      agent: (name) => agentFor(store, name),
      stream: (summary) => runSummaryStep(dependencies, { ...summary, sessionID, signal }),
    },
    input,
  ).catch((error: unknown) => ({ outcome: 'stop' as const, error: unknownError(error) }))
  return compactionEndedTurn(result) ?? 'continue'
}

/** The prompt's model, resolved; then the check before a step: the last finished reply may have filled the context. */
async function checkBeforeStep(run: LoopRun, turn: PromptTurn): Promise<Next> {
  const { user, history, settings } = turn
  const resolution: { resolved?: ResolvedModel; error?: MessageError } = await run.reads.model(user.model).then(
    (resolved) => ({ resolved }),
    (error: unknown) => ({ error: unknownError(error) }),
  )
  const unresolved = modelUnresolved(resolution)
  if (unresolved) return unresolved
  const { resolved } = resolution as { resolved: ResolvedModel }
  const compacted = justCompacted(history)
  if (settings.auto && !compacted && lastFinishedOverflows(history, resolved.limit)) {
    await requestCompaction(run.dependencies.store, user)
    return 'continue'
  }
  return presend(run, { ...turn, resolved, compacted })
}

/** The step's request, built and measured before it is sent: it is sent, compacted first, or refused. */
async function presend(run: LoopRun, plan: StepPlan): Promise<Next> {
  const { store } = run.dependencies
  const { session, history, user, resolved } = plan
  const agents = await run.reads.agents()
  const request = await stepRequest(run.dependencies, { session, history, user, resolved, agents, step: run.step, signal: run.signal, mcpServers: run.reads.mcpServers })
  const estimate = requestTokens({ system: request.system, messages: request.messages, tools: offeredDefinitions(request.dependencies, request.turn) })
  const verdict = presendVerdict({ estimate, limit: resolved.limit, auto: plan.settings.auto, compacted: plan.compacted, onlyPrompt: isOnlyTextPrompt(history) })
  if (verdict.action === 'compact') {
    // Before a prompt is answered, as a provider overflow would: the prompt is replayed after the summary. Within
    // a turn, as a step's usage would: its steps so far are summarised too, and the turn continues.
    await requestCompaction(store, user, { overflow: history.at(-1)?.info.role === 'user' })
    return 'continue'
  }
  const refusal = requestRefused(verdict)
  if (refusal) {
    await refuseReply(store, session, user, resolved, refusal.error)
    return refusal
  }
  return takeStep(run, plan, request)
}

/** One model call and its tools, stored as one assistant message; then what its outcome asks for. */
async function takeStep(run: LoopRun, plan: StepPlan, request: StepRequest<LoopDependencies>): Promise<Next> {
  const { dependencies, sessionID, signal } = run
  const { store } = dependencies
  const { session, history, resolved } = plan
  const { agent, workspace, system, messages, turn } = request
  run.step++
  if (run.step === 1) void generateTitle(dependencies, session, history, resolved).catch(() => {})

  const before = await run.snapshots.track(session.projectID, workspace)
  const since = plan.kept?.known.length ? plan.kept : undefined
  const assistant = since ? await openReply(store, session, plan.user, resolved, since) : await openReply(store, session, plan.user, resolved)
  if (!assistant) {
    // Something came in since the history kept in memory: nothing was stored, and the step starts again from a read.
    run.step--
    return 'continue'
  }
  const snapshots: StepSnapshots = {
    ...(before ? { before } : {}),
    // A step whose tools cannot change files ends where it began: no second walk of the workspace per step.
    after: (called) =>
      before && called.every((tool) => FILE_PRESERVING_TOOLS.has(tool)) ? Promise.resolve(before) : run.snapshots.track(session.projectID, workspace, { fresh: true }),
  }
  const sampling = {
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
    ...(agent.topP !== undefined ? { topP: agent.topP } : {}),
  }
  const call = { sessionID, assistant, resolved, system, messages, signal, snapshots, ...sampling }
  const { error, blocked, after, parts } = await runStepWithRetry(run.stepDependencies, {
    ...call,
    tools: (processor) => stepTools(request.dependencies, { ...call, turn }, processor, run.runChild),
  })
  const verdict = overflowVerdict({ error, blocked, assistant, settings: plan.settings, compacted: plan.compacted, limit: resolved.limit, onlyPrompt: isOnlyTextPrompt(history) })
  const final = verdict.error ?? error
  await closeReply(store, assistant, { error, final })
  const patch = await recordPatch(dependencies, assistant, before, after)
  // A step that went well goes on from its own rows: the reply as stored and its parts, the patch among them.
  if (plan.kept && parts && !final && !blocked && !verdict.compact) run.kept = withReply(plan.kept, assistant, patch ? [...parts, patch] : parts)
  return afterStep(run, plan, { compact: verdict.compact, final, blocked })
}

/** What a finished step asks for: a compaction, the turn's end (an error that stands, a rejection), or the next step. */
async function afterStep(
  run: LoopRun,
  plan: StepPlan,
  outcome: { compact?: 'overflow' | 'usage' | undefined; final: MessageError | undefined; blocked: boolean },
): Promise<Next> {
  const { store } = run.dependencies
  if (outcome.compact === 'overflow') {
    await requestCompaction(store, plan.user, { overflow: true })
    return 'continue'
  }
  if (outcome.compact === 'usage') {
    // A reply that ends the turn is left alone: the next prompt compacts first (the check before a step).
    if (!turnIsDone((await loadRecentHistory(store, run.sessionID)).history)) await requestCompaction(store, plan.user)
    return 'continue'
  }
  // A rejection ends the turn: the next prompt starts afresh.
  return stepFailed({ error: outcome.final }) ?? userRejected({ blocked: outcome.blocked }) ?? 'continue'
}

/**
 * Tools that never change the workspace's files. A user's own edit during such a step is not lost: the next step's
 * start snapshot (and so its patch and the turn's diffs from then on) still sees it.
 */
export const FILE_PRESERVING_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'glob', 'list', 'webfetch', 'todowrite', 'invalid'])

function unknownError(error: unknown): MessageError {
  return { name: 'UnknownError', data: { message: error instanceof Error ? error.message : String(error) } }
}

function abortError(): Error {
  return Object.assign(new Error('Stopped by the user'), { name: 'AbortError' })
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
