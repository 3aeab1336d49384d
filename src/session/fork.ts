import { log } from '../core/log'
import { withoutImportStamp } from '../core/read-only'
import { changedFiles, loadSnapshot, projectFilesFromSnapshot } from '../snapshot'
import type { StoreContext } from '../store/context'
import { NotFoundError } from '../core/errors'
import { ascending, descending } from '../core/id'
import { loadHistory, type MessageWithParts } from '../store/message-store'
import { visibleHistory, type RevertPoint } from './revert'
import type { AssistantMessage, Message, Part, Project, SessionInfo, Snapshot, ToolOutput, UserMessage, WorkspaceEntry } from '../core/schema'
import { emptyTokens } from '../core/schema/common'
import { lastOf } from '../core/history'
import { repairHistory } from '../store/recovery'
import { addFork } from '../store/fork-rows'
import { sessionOutputs } from '../store/outputs'
import { projectFiles } from '../store/project-rows'
import { findProject } from '../store/project-store'
import { initialTrust } from '../core/project-files/trust'
import { findSession, MAX_TITLE_LENGTH, usageOfParts } from '../store/session-store'
import { createSlug } from '../core/slug'

const FORK_SUFFIX = /^(.*) \(fork #(\d+)\)$/

/** `<title> (fork #1)`; a fork of a fork counts on: `(fork #N)` becomes `(fork #N+1)`. */
export function forkTitle(title: string): string {
  const match = FORK_SUFFIX.exec(title)
  const base = match ? match[1]! : title
  const suffix = ` (fork #${match ? Number(match[2]) + 1 : 1})`
  // The suffix must survive the title length limit: the base gives way.
  const room = MAX_TITLE_LENGTH - suffix.length
  return (base.length > room ? base.slice(0, room - 1) + '…' : base) + suffix
}

export interface ForkCut {
  /** What the fork gets, oldest first. */
  entries: MessageWithParts[]
  /** The first message left out, when any is. */
  left?: string
}

/**
 * The history a fork copies: every message before `messageID`, which is left out with all that follows (the cut is
 * exclusive, as in opencode; branching "at" an assistant reply to keep it means cutting at the message after it).
 * What a pending revert hides is left out too.
 */
export function forkCut(history: readonly MessageWithParts[], options: { messageID?: string; revert?: RevertPoint } = {}): ForkCut {
  const visible = visibleHistory(history, options.revert)
  const { messageID } = options
  const at = messageID === undefined ? -1 : visible.findIndex((entry) => entry.info.id >= messageID)
  const entries = at === -1 ? visible : visible.slice(0, at)
  const kept = new Set(entries.map((entry) => entry.info.id))
  const left = history.find((entry) => !kept.has(entry.info.id))?.info.id
  return { entries, ...(left ? { left } : {}) }
}

/**
 * The snapshot of the files at the cut: the pre-step snapshot of the first step the fork leaves out (its step-start
 * part, or a patch part's `hash`). Undefined when no step after the cut took one: then the files are as now.
 */
export function snapshotAtCut(history: readonly MessageWithParts[], cut: ForkCut): string | undefined {
  const kept = new Set(cut.entries.flatMap((entry) => entry.parts.map((part) => part.id)))
  for (const entry of history) {
    for (const part of entry.parts) {
      if (kept.has(part.id)) continue
      if (part.type === 'step-start' && part.snapshot) return part.snapshot
      if (part.type === 'patch') return part.hash
    }
  }
  return undefined
}

/** What a fork's copy says on a reply it closed, and on the reply it gives a prompt that had none. */
export const UNFINISHED_WHEN_COPIED = 'Not finished when this session was copied'

/**
 * The entries as a record that nothing goes on with until the user prompts (an imported session is never run, and
 * neither is its copy): what a run left open (a reply still streaming in the source, or one a
 * stranger's link carries open) is closed as a repair closes a dead runner's turn, and a newest prompt (or compaction
 * marker) with no reply gets an empty reply, closed with the same words. So a fork needs no repair when it is first
 * opened, no runner starts for it, and the user's first prompt in it is answered on its own, not after the copied
 * one (`stepHistory` answers the oldest prompt with no reply first).
 */
export function closeCopiedHistory(entries: readonly MessageWithParts[], now: number, directory: string): MessageWithParts[] {
  const repair = repairHistory(entries, now, UNFINISHED_WHEN_COPIED)
  const messages = new Map(repair.messages.map((message) => [message.id, message]))
  const parts = new Map(repair.parts.map((part) => [part.id, part]))
  const closed = entries.map((entry) => ({
    info: messages.get(entry.info.id) ?? entry.info,
    parts: entry.parts.map((part) => parts.get(part.id) ?? part),
  }))
  const prompt = lastOf(closed, 'user')?.info as UserMessage | undefined
  if (!prompt || closed.some((entry) => entry.info.role === 'assistant' && entry.info.parentID === prompt.id)) return closed
  const reply: AssistantMessage = {
    id: ascending('message', now),
    sessionID: prompt.sessionID,
    role: 'assistant',
    time: { created: now, completed: now },
    error: { name: 'MessageAbortedError', data: { message: UNFINISHED_WHEN_COPIED } },
    parentID: prompt.id,
    modelID: prompt.model.modelID,
    providerID: prompt.model.providerID,
    agent: prompt.agent,
    mode: prompt.agent,
    path: { cwd: directory, root: directory },
    cost: 0,
    tokens: emptyTokens(),
  }
  return [...closed, { info: reply, parts: [] }]
}

export interface CopiedHistory {
  messages: Message[]
  parts: Part[]
  /** Old message id → new one. */
  ids: Map<string, string>
  /** Old part id → new one. */
  partIDs: Map<string, string>
}

/**
 * The entries as rows of another session: every message and part gets a new ascending id in the same order (ids
 * minted in one go are strictly increasing, see `id.ts`), a reply's `parentID` and a compaction's `tail_start_id`
 * follow their messages, and everything else is a deep copy, but for one thing: no message is dated at or after the
 * copy (`now`; a stranger's link can carry any date). Every message stored in the fork later is dated from its
 * creation on, which is how `cameWithCopy` (`core/history.ts`) tells the two apart.
 */
export function copyHistory(entries: readonly MessageWithParts[], sessionID: string, now: number): CopiedHistory {
  const ids = new Map<string, string>()
  const partIDs = new Map<string, string>()
  const messages: Message[] = []
  const parts: Part[] = []
  const queued: Array<{ part: Part; messageID: string }> = []
  for (const entry of entries) {
    const messageID = ascending('message', now)
    ids.set(entry.info.id, messageID)
    const message: Message = { ...structuredClone(entry.info), id: messageID, sessionID }
    if (message.time.created >= now) message.time.created = now - 1
    messages.push(message)
    for (const part of entry.parts) queued.push({ part, messageID })
  }
  // Parts after all messages, so every id a part refers to is known; their own ids still ascend in order.
  for (const { part, messageID } of queued) {
    const copy: Part = { ...structuredClone(part), id: ascending('part', now), sessionID, messageID }
    partIDs.set(part.id, copy.id)
    if (copy.type === 'compaction' && copy.tail_start_id !== undefined) {
      const tail = ids.get(copy.tail_start_id)
      if (tail) copy.tail_start_id = tail
      else delete copy.tail_start_id
    }
    parts.push(copy)
  }
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    const parent = ids.get(message.parentID)
    if (parent) message.parentID = parent
  }
  return { messages, parts, ids, partIDs }
}

/**
 * Saved whole outputs behind truncated tool results belong to a session (and go when it is removed), so the fork
 * gets copies under new ids, and its tool parts name the new ones.
 */
function copyOutputs(outputs: readonly ToolOutput[], copied: CopiedHistory, sessionID: string, now: number): ToolOutput[] {
  const renamed = new Map<string, string>()
  const copies = outputs.flatMap((output) => {
    const messageID = copied.ids.get(output.messageID)
    if (!messageID) return []
    const id = ascending('tool', now)
    renamed.set(output.id, id)
    return [{ ...output, id, sessionID, messageID, partID: copied.partIDs.get(output.partID) ?? output.partID }]
  })
  if (renamed.size === 0) return copies
  for (const [index, part] of copied.parts.entries()) {
    if (part.type !== 'tool') continue
    // The id appears in the metadata and in the notice at the end of the output; ids are unique, so replace them all.
    let text = JSON.stringify(part)
    for (const [from, to] of renamed) text = text.replaceAll(from, to)
    copied.parts[index] = JSON.parse(text) as Part
  }
  return copies
}

/** How a fork reaches the files of the session's project. Without it, a fork always stays in the same project. */
export interface ForkFiles {
  /** The workspace root snapshot paths are relative to. */
  root: string
  /** The project's files now, as a snapshot (taken now). */
  current(): Promise<Snapshot>
}

export interface ForkOutcome {
  session: SessionInfo
  project: Project
  newProject: boolean
  /** Files of the branch point the new project could not get (contents no longer stored). */
  missingFiles: string[]
}

/**
 * A new root session with the history before `messageID` (all of it without one), in one transaction. Its files
 * are those at the branch point: when they differ from the project's files now, the fork gets a project of its own,
 * "<name> (fork)", holding them (rows only; contents are shared blobs). The fork keeps the session's model, so it
 * can be prompted at once. A subagent's child sessions are not copied (the fork's task parts still name them).
 */
export async function forkSession(
  context: StoreContext,
  input: { sessionID: string; messageID?: string },
  files?: ForkFiles,
): Promise<ForkOutcome> {
  const source = await findSession(context, input.sessionID)
  if (!source) throw new NotFoundError('session', input.sessionID)
  const project = await findProject(context, source.projectID)
  if (!project) throw new NotFoundError('project', source.projectID)
  const history = await loadHistory(context, source.id)
  if (input.messageID !== undefined && !history.some((entry) => entry.info.id === input.messageID)) {
    throw new NotFoundError('message', input.messageID)
  }
  const cut = forkCut(history, { ...(input.messageID ? { messageID: input.messageID } : {}), ...(source.revert ? { revert: source.revert } : {}) })

  const now = context.now()
  let target: Project = project
  let fileRows: WorkspaceEntry[] = []
  let missingFiles: string[] = []
  const at = snapshotAtCut(history, cut)
  let current: Snapshot | undefined
  try {
    if (at && files) current = await files.current()
  } catch (error) {
    // Files that cannot be read now cannot be compared: the fork stays with the project rather than failing.
    log.warn('tabcode: could not read the project files to fork', error)
  }
  if (at && files && current) {
    const then = await loadSnapshot(context, at)
    if (changedFiles(then, current).length > 0) {
      const origin = { type: 'fork' as const, projectID: project.id }
      target = {
        id: ascending('project', now),
        name: `${project.name} (fork)`,
        directory: project.directory,
        // Its files are the source project's, so it is trusted as far as that one is.
        origin,
        trust: initialTrust(origin, now, project.trust),
        time: { created: now, updated: now },
      }
      const made = await projectFilesFromSnapshot({
        store: context,
        snapshot: then,
        projectID: target.id,
        root: files.root,
        source: await projectFiles(context, project.id),
        tracked: new Set(Object.keys(current.files)),
        now,
      })
      fileRows = made.rows
      missingFiles = made.missing
    }
  }

  const sessionID = descending('session', now)
  const copied = copyHistory(closeCopiedHistory(cut.entries, now, source.directory), sessionID, now)
  const outputs = copyOutputs(await sessionOutputs(context, source.id), copied, sessionID, now)
  const usage = usageOfParts(copied.parts)
  const session: SessionInfo = {
    id: sessionID,
    slug: createSlug(),
    projectID: target.id,
    directory: source.directory,
    title: forkTitle(source.title),
    ...(source.agent ? { agent: source.agent } : {}),
    ...(source.model ? { model: structuredClone(source.model) } : {}),
    ...(withoutImportStamp(source.metadata) ? { metadata: withoutImportStamp(source.metadata) } : {}),
    version: context.version,
    cost: usage.cost,
    tokens: usage.tokens,
    fork: { sessionID: source.id, ...(cut.left ? { messageID: cut.left } : {}) },
    time: { created: now, updated: now },
  }
  const newProject = target !== project
  const stored = await addFork(context, {
    ...(newProject ? { project: { project: target, files: fileRows } } : {}),
    session,
    messages: copied.messages,
    parts: copied.parts,
    outputs,
  })
  return { session: stored.session, project: stored.project?.project ?? project, newProject, missingFiles }
}

