import { log } from '../core/log'
import { doomLoopRequest, isDoomLoop } from '../core/permission/doom-loop'
import type { FileTimes, PermissionRequest, SubtaskRequest, SubtaskResult, Todos, ToolOutputs } from '../core/ports'
import type { StepTools } from '../tools/tool'
import { resolvePath } from '../workspace/path'
import type { Workspace } from '../workspace/workspace'
import type { StoreContext } from '../store/context'
import { loadHistory, type MessageWithParts } from '../store/message-store'
import { loadHistoryFrom, loadRecentHistory, type RecentHistory } from '../store/recent-history'
import { updateMessage } from '../store/message-store'
import { writeTodos } from '../store/todo-store'
import { putPart } from '../store/parts'
import { readOutput, saveOutput } from '../store/outputs'
import { findSession, updateSession } from '../store/session-store'
import { turnRange, type TurnRange } from '../snapshot'
import { summarizeDiffs } from '../core/diff-summary'
import type { StepProcessor } from './processor'
import type { AssistantMessage, Part, PartOf, PermissionRule, SessionInfo, UserMessage } from '../core/schema'
import { ascending } from '../core/id'
import { lastOf } from '../core/history'
import type { PermissionGate, SnapshotSource, WorkspaceSource } from './turn-services'
import { allowEverything } from './turn-services'
import type { StepToolContext, ToolRegistry } from '../tools/registry'
import { describeTask, type SubagentInfo } from '../tools/task'

/** What the tools of one step share: the session, its agent and rules, the workspace, the turn's calls so far. */
export interface TurnContext {
  session: SessionInfo
  agent: string
  agentRules: PermissionRule[]
  workspace: Workspace
  /** The subagents the task tool offers this turn; absent, the built-in ones it was made with. */
  subagents?: readonly SubagentInfo[]
  /** Every tool call of the current turn, across its messages, oldest first (for the doom-loop check). */
  calls: { tool: string; input: unknown }[]
  signal: AbortSignal
}

export interface TurnDependencies {
  store: StoreContext
  tools: ToolRegistry
  workspaces: WorkspaceSource
  permissions?: PermissionGate
  snapshots?: SnapshotSource
  fileTimes: (sessionID: string) => FileTimes
}

/** Truncated tool outputs kept whole in the outputs table (the read tool pages through them by id). */
export function storedOutputs(store: StoreContext): ToolOutputs {
  return {
    save: async (output) => {
      const id = ascending('tool', store.now())
      await saveOutput(store, { id, ...output, time: { created: store.now() } })
      return id
    },
    read: async (id) => (await readOutput(store, id))?.text,
  }
}

/** The session's task list in the todos table (announced to the page as it is written). */
export function storedTodos(store: StoreContext): Todos {
  return { write: (sessionID, todos) => writeTodos(store, sessionID, todos) }
}

/** A snapshot of the project's files, or undefined when snapshots are off or the workspace cannot be read. */
export async function trackSnapshot(dependencies: TurnDependencies, projectID: string, workspace: Workspace): Promise<string | undefined> {
  if (!dependencies.snapshots) return undefined
  try {
    return await dependencies.snapshots.track(projectID, workspace)
  } catch (error) {
    log.warn('tabcode: could not take a snapshot of the workspace', error)
    return undefined
  }
}

/**
 * A run's snapshots. The workspace reports every write through its watch (the tools', the editor's, the terminal's),
 * so a step's start snapshot is walked only when something changed since the last walk: steps that change no file
 * share one. `fresh` walks whatever the watch said (a step's end after tools that may write, in any backend).
 */
export function snapshotMemo(dependencies: TurnDependencies) {
  let last: { workspace: Workspace; projectID: string; hash: string; clean: boolean; stop: () => void } | undefined
  const forget = () => {
    last?.stop()
    last = undefined
  }
  return {
    async track(projectID: string, workspace: Workspace, options: { fresh?: boolean } = {}): Promise<string | undefined> {
      if (!options.fresh && last?.clean && last.workspace === workspace && last.projectID === projectID) return last.hash
      forget()
      // Watching from before the walk: a write during it marks the result stale for the next step.
      const entry = { workspace, projectID, hash: '', clean: true, stop: () => {} }
      entry.stop = workspace.watch(() => void (entry.clean = false))
      const hash = await trackSnapshot(dependencies, projectID, workspace)
      if (!hash) {
        entry.stop()
        return undefined
      }
      entry.hash = hash
      last = entry
      return hash
    },
    close: forget,
  }
}

/** The project's own instructions for agents (AGENTS.md at the workspace root), if it has them. */
export async function projectInstructions(workspace: Workspace): Promise<{ agentsMd?: string; agentsMdPath?: string }> {
  const path = resolvePath(workspace.root, 'AGENTS.md')
  const stat = await workspace.stat(path).catch(() => undefined)
  if (!stat || stat.type !== 'file') return {}
  const text = await workspace.readText(path).catch(() => '')
  return text.trim() ? { agentsMd: text, agentsMdPath: path } : {}
}


/** The tool calls made since the last user message, oldest first: the doom-loop check looks across steps. */
export function turnToolCalls(history: MessageWithParts[]): { tool: string; input: unknown }[] {
  const calls: { tool: string; input: unknown }[] = []
  for (let index = history.length - 1; index >= 0; index--) {
    const entry = history[index]!
    if (entry.info.role === 'user') break
    const own = entry.parts.filter((part): part is PartOf<'tool'> => part.type === 'tool').map((part) => ({ tool: part.tool, input: part.state.input }))
    calls.unshift(...own)
  }
  return calls
}

function hiddenTools(dependencies: TurnDependencies, turn: Pick<TurnContext, 'agentRules' | 'session'>): Set<string> {
  const gate = dependencies.permissions ?? allowEverything
  return new Set(gate.hiddenTools([...dependencies.tools.definitions.keys()], turn.agentRules, turn.session.permission))
}

/** The tool definitions a step offers the model (what `stepTools` gives it), known before the step exists. */
export function offeredDefinitions(dependencies: TurnDependencies, turn: Pick<TurnContext, 'agentRules' | 'session' | 'subagents'>): StepTools['definitions'] {
  const hidden = hiddenTools(dependencies, turn)
  return withSubagents(dependencies.tools.modelDefinitions(), turn.subagents).filter((definition) => !hidden.has(definition.name))
}

/** The definitions with the task tool describing this turn's subagents (the project's and the user's too). */
function withSubagents(definitions: StepTools['definitions'], subagents: readonly SubagentInfo[] | undefined): StepTools['definitions'] {
  if (!subagents) return definitions
  return definitions.map((definition) => (definition.name === 'task' ? { ...definition, description: describeTask(subagents) } : definition))
}

/**
 * The step's tools with everything they need: the workspace, the permission gate (which also asks `doom_loop` when
 * the same call repeats three times in a row across the turn), file read times and subagents.
 */
export function stepTools(
  dependencies: TurnDependencies,
  input: { sessionID: string; assistant: AssistantMessage; turn: TurnContext },
  processor: StepProcessor,
  runChild: (request: SubtaskRequest, parent: SessionInfo, signal: AbortSignal) => Promise<SubtaskResult>,
): StepTools {
  const { turn } = input
  const gate = dependencies.permissions ?? allowEverything
  const ask = (request: PermissionRequest, callID?: string, sessionRules = turn.session.permission) =>
    gate.check({
      session: turn.session,
      messageID: input.assistant.id,
      ...(callID ? { callID } : {}),
      agentRules: turn.agentRules,
      ...(sessionRules ? { sessionRules } : {}),
      request,
      signal: turn.signal,
    })
  const context: StepToolContext = {
    sessionID: input.sessionID,
    messageID: input.assistant.id,
    progress: (callID, update) => processor.progress(callID, update),
    workspace: turn.workspace,
    agent: turn.agent,
    ask: (request, callID) => ask(request, callID),
    files: dependencies.fileTimes(input.sessionID),
    subtask: (request) => runChild(request, turn.session, turn.signal),
    ...(turn.subagents ? { subagents: turn.subagents } : {}),
    outputs: storedOutputs(dependencies.store),
    todos: storedTodos(dependencies.store),
  }
  const hidden = hiddenTools(dependencies, turn)
  const tools = dependencies.tools.stepTools(context, turn.signal)
  return {
    definitions: withSubagents(tools.definitions, turn.subagents).filter((definition) => !hidden.has(definition.name)),
    resolve: (call) => {
      const resolved = tools.resolve(call)
      // A hidden tool is as unknown to the model as one that does not exist.
      if (hidden.has(resolved.toolName)) {
        return { toolName: 'invalid', input: { tool: call.toolName, error: `The ${call.toolName} tool is not available to this agent.` } }
      }
      return resolved
    },
    run: async (call) => {
      turn.calls.push({ tool: call.toolName, input: call.input })
      if (call.toolName !== 'invalid' && isDoomLoop(turn.calls)) {
        // As in opencode, only the agent's rules decide this one (a session rule for a tool must not silence it).
        await ask(doomLoopRequest({ tool: call.toolName, input: call.input }), call.toolCallId, [])
      }
      return tools.run(call)
    },
  }
}

/** After a step: a patch part listing the files whose content changed during it; the part as stored, if one was. */
export async function recordPatch(
  dependencies: TurnDependencies,
  assistant: AssistantMessage,
  before: string | undefined,
  after: string | undefined,
): Promise<Part | undefined> {
  if (!before || !after || after === before || !dependencies.snapshots) return undefined
  const { store } = dependencies
  const files = await dependencies.snapshots.changedFiles(before, after)
  if (files.length === 0) return undefined
  const part: PartOf<'patch'> = { id: ascending('part', store.now()), sessionID: assistant.sessionID, messageID: assistant.id, type: 'patch', hash: before, files }
  return putPart(store, part)
}

/** Each prompt that has a snapshot range, with it, oldest first. */
function turnRanges(history: MessageWithParts[]): { user: UserMessage; range: TurnRange }[] {
  // One pass to group replies under their prompt: a filter per prompt made a long session's turn end quadratic.
  const replies = new Map<string, Part[]>()
  for (const entry of history) {
    if (entry.info.role !== 'assistant') continue
    const parts = replies.get(entry.info.parentID)
    if (parts) parts.push(...entry.parts)
    else replies.set(entry.info.parentID, [...entry.parts])
  }
  const turns: { user: UserMessage; range: TurnRange }[] = []
  for (const entry of history) {
    if (entry.info.role !== 'user') continue
    const range = turnRange(replies.get(entry.info.id) ?? [])
    if (range) turns.push({ user: entry.info, range })
  }
  return turns
}

/**
 * The newest prompt that has a snapshot range, with it. When the read left out replies before its kept tail and the
 * newest prompt lies before them (a turn that compacted in its middle), the turn is read again from that prompt on:
 * what the turn wrote, not the session.
 */
async function lastTurnRange(store: StoreContext, sessionID: string, recent: RecentHistory): Promise<{ user: UserMessage; range: TurnRange } | undefined> {
  const newest = lastOf(recent.history, 'user')
  const skipped = recent.skippedBefore ? recent.history.findIndex((entry) => entry.info.id === recent.skippedBefore) : -1
  if (!newest || skipped < 0 || recent.history.indexOf(newest) >= skipped) return turnRanges(recent.history).at(-1)
  // An older prompt's range (the newest had none) needs its replies: those the read left out, perhaps.
  return turnRanges(await loadHistoryFrom(store, sessionID, newest.info.id)).at(-1) ?? turnRanges(await loadHistory(store, sessionID)).at(-1)
}

/**
 * When a turn ends: its net diffs on its user message, and the session's net diffs and totals on the session, both
 * derived from the snapshots stored on step parts (so a turn resumed after a reload is counted whole). The turn is
 * found in the history since the last compaction; the whole session is read only when the session's diffs can
 * move: a turn that changed no file (and had recorded no change before, as a resumed turn may have) leaves them as
 * the previous turn's end recorded them.
 */
export async function recordDiffs(
  dependencies: TurnDependencies,
  sessionID: string,
  /** The loop's own read of the finished turn, when nothing of the session was written after it. */
  settled?: RecentHistory,
): Promise<void> {
  const { store, snapshots } = dependencies
  if (!snapshots) return
  const recent = settled ?? (await loadRecentHistory(store, sessionID))
  const last = await lastTurnRange(store, sessionID, recent)
  if (!last) return
  const turnDiffs = await snapshots.diffs(last.range.from, last.range.to)
  await updateMessage(store, { ...last.user, summary: { ...last.user.summary, diffs: turnDiffs } })
  if (!recent.whole && turnDiffs.length === 0 && !last.user.summary?.diffs?.length && (await findSession(store, sessionID))?.summary) return
  const turns = recent.whole ? turnRanges(recent.history) : turnRanges(await loadHistory(store, sessionID))
  const diffs = await snapshots.sessionDiffs(turns.map((turn) => turn.range))
  if (!(await findSession(store, sessionID))) return
  await updateSession(store, sessionID, (draft) => void (draft.summary = { ...summarizeDiffs(diffs), diffs }), { touch: false })
}
