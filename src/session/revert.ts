import { log } from '../core/log'
import {
  isContentHash,
  loadSnapshot,
  restoreFiles,
  revertPatches,
  revertPlan,
  sessionDiffs,
  takeSnapshot,
  turnRange,
  type Manifest,
  type StepPatch,
  type TurnRange,
} from '../snapshot'
import type { Workspace } from '../workspace/workspace'
import type { StoreContext } from '../store/context'
import { NotFoundError } from '../core/errors'
import { loadHistory, type MessageWithParts } from '../store/message-store'
import { loadHistoryFrom } from '../store/recent-history'
import type { Part, SessionInfo, Snapshot } from '../core/schema'
import { getSession, updateSession } from '../store/session-store'
import { removeRevertedRows } from '../store/revert-rows'
import { getSnapshots } from '../store/snapshots'
import { summarizeDiffs } from '../core/diff-summary'

/** Where hidden history starts: a whole message (and everything after it), or a part of one and what follows. */
export interface RevertPoint {
  messageID: string
  partID?: string
}

export interface FileChange {
  path: string
  change: 'restore' | 'delete'
}

/**
 * opencode's revert-point rules. The point is the first part matching the target: any part of the message
 * when only a message is given, else the given part. If the message has a text or tool part before that part, only
 * the rest of the message goes (a partial revert). Otherwise the whole message goes, and for an assistant reply that
 * means going back to (and including) the prompt it answered: a reply without its prompt would be asked again.
 */
export function findRevertPoint(history: readonly MessageWithParts[], target: RevertPoint): RevertPoint {
  let lastUser: string | undefined
  for (const { info, parts } of history) {
    if (info.role === 'user') lastUser = info.id
    const whole = !target.partID && info.id === target.messageID
    const wholeMessage = () => ({ messageID: info.role === 'user' ? info.id : (lastUser ?? info.id) })
    if (whole && parts.length === 0) return wholeMessage()
    for (const [index, part] of parts.entries()) {
      if (!whole && part.id !== target.partID) continue
      const spoken = parts.slice(0, index).some((earlier) => earlier.type === 'text' || earlier.type === 'tool')
      return spoken ? { messageID: info.id, partID: part.id } : wholeMessage()
    }
  }
  throw target.partID ? new NotFoundError('part', target.partID) : new NotFoundError('message', target.messageID)
}

/** Ids are time-ordered, so "after the point" is a string comparison, as in opencode. */
export function isHiddenMessage(point: RevertPoint, messageID: string): boolean {
  return messageID > point.messageID || (messageID === point.messageID && !point.partID)
}

export function isHiddenPart(point: RevertPoint, part: Pick<Part, 'id' | 'messageID'>): boolean {
  if (isHiddenMessage(point, part.messageID)) return true
  return part.messageID === point.messageID && point.partID !== undefined && part.id >= point.partID
}

/** The history as it reads with the revert applied: hidden messages left out, a partly reverted one cut short. */
export function visibleHistory(history: readonly MessageWithParts[], point: RevertPoint | undefined): MessageWithParts[] {
  if (!point) return [...history]
  return history
    .filter((entry) => !isHiddenMessage(point, entry.info.id))
    .map((entry) => (entry.info.id === point.messageID ? { ...entry, parts: entry.parts.filter((part) => !isHiddenPart(point, part)) } : entry))
}

/** The messages a revert hides entirely (a partly reverted message stays, shorter). */
export function hiddenMessages(history: readonly MessageWithParts[], point: RevertPoint): string[] {
  return history.filter((entry) => isHiddenMessage(point, entry.info.id)).map((entry) => entry.info.id)
}

/** The file changes of the hidden steps, oldest first: what reverting the files undoes. */
export function hiddenPatches(history: readonly MessageWithParts[], point: RevertPoint): StepPatch[] {
  return history.flatMap((entry) =>
    entry.parts.flatMap((part) => (part.type === 'patch' && isHiddenPart(point, part) ? [{ hash: part.hash, files: part.files }] : [])),
  )
}

/**
 * What each file goes back to: its entry in the pre-step manifest of the oldest patch that touched it (undefined:
 * the file did not exist then, so it is deleted).
 */
export function revertTargets(patches: readonly StepPatch[], snapshots: ReadonlyMap<string, Snapshot>): Map<string, string | undefined> {
  const targets = new Map<string, string | undefined>()
  for (const group of revertPlan(patches)) {
    const snapshot = snapshots.get(group.snapshot)
    if (!snapshot) throw new NotFoundError('snapshot', group.snapshot)
    for (const file of group.files) targets.set(file, snapshot.files[file])
  }
  return targets
}

/**
 * The files a revert changes, compared with what is there now. A pending revert of files is undone first (its
 * files go back to `undo.manifest`, the redo snapshot), so a file it changed that the new revert leaves alone is
 * listed as restored too. Files already as they will be are left out; so are files recorded only by size, which
 * restore never touches.
 */
export function plannedChanges(input: {
  current: Manifest
  targets: ReadonlyMap<string, string | undefined>
  undo?: { files: readonly string[]; manifest: Manifest }
}): FileChange[] {
  const { current, targets, undo } = input
  const undone = new Set(undo?.files ?? [])
  const paths = [...new Set([...targets.keys(), ...undone])].sort()
  const changes: FileChange[] = []
  for (const path of paths) {
    const target = targets.has(path) ? targets.get(path) : undo!.manifest[path]
    if (target === current[path]) continue
    if (target === undefined) changes.push({ path, change: 'delete' })
    else if (isContentHash(target)) changes.push({ path, change: 'restore' })
  }
  return changes
}

/**
 * The patches whose pre-step snapshot is stored, with those snapshots. A session imported without its snapshots
 * names snapshots this browser never had: what those steps changed cannot be put back, so it is left as it is
 * (the same in the preview and the revert), rather than refusing the whole revert.
 */
async function restorablePatches(context: StoreContext, patches: readonly StepPatch[]) {
  const hashes = [...new Set(patches.map((patch) => patch.hash))]
  const snapshots = new Map<string, Snapshot>()
  for (const snapshot of await getSnapshots(context, hashes)) if (snapshot) snapshots.set(snapshot.id, snapshot)
  return { patches: patches.filter((patch) => snapshots.has(patch.hash)), snapshots }
}

/** Where a session's files are: its project's workspace. Without one, only the conversation can be reverted. */
export interface SessionFiles {
  projectID: string
  workspace: Workspace
}

export interface RevertPreviewResult extends RevertPoint {
  /** How many messages the revert hides entirely. */
  messages: number
  /** What reverting the files too would change. */
  files: FileChange[]
}

/** What a revert at `target` would hide and which files it would change how, for the confirmation. Changes nothing. */
export async function revertPreview(
  context: StoreContext,
  input: RevertPoint & { sessionID: string },
  files?: SessionFiles,
): Promise<RevertPreviewResult> {
  const session = await getSession(context, input.sessionID)
  // Only what the revert would hide is read, not the session before it.
  const history = await loadHistoryFrom(context, input.sessionID, input.messageID)
  const point = findRevertPoint(history, input)
  const base = { ...point, messages: hiddenMessages(history, point).length }
  if (!files) return { ...base, files: [] }
  const { patches, snapshots } = await restorablePatches(context, hiddenPatches(history, point))
  const current = await takeSnapshot({ store: context, projectID: files.projectID, workspace: files.workspace })
  const previous = session.revert
  const undo =
    previous?.files?.length && previous.snapshot
      ? { files: previous.files, manifest: (await loadSnapshot(context, previous.snapshot)).files }
      : undefined
  return { ...base, files: plannedChanges({ current: current.files, targets: revertTargets(patches, snapshots), ...(undo ? { undo } : {}) }) }
}

/**
 * Hides the history from the point on (it is removed when the next prompt is sent, by `finishRevert`). With `files`,
 * the files the hidden steps changed go back file by file, never the whole tree: a file nobody's step touched (an
 * edit the user made meanwhile) keeps its content. The files as they were before go into a redo snapshot, and
 * `revert.files` lists exactly what changed, for `unrevertSession`. The caller makes sure the session is idle.
 */
export async function revertSession(
  context: StoreContext,
  input: RevertPoint & { sessionID: string; files: boolean },
  files?: SessionFiles,
): Promise<SessionInfo> {
  const session = await getSession(context, input.sessionID)
  const history = await loadHistory(context, input.sessionID)
  const point = findRevertPoint(history, input)
  const previous = session.revert
  // Conversation only: the files stay as they are, so a pending revert of files stays undoable.
  let restored: { snapshot?: string; files?: string[] } =
    previous?.files && previous.snapshot ? { snapshot: previous.snapshot, files: previous.files } : {}
  if (input.files) {
    if (!files) throw new NotFoundError('workspace', session.projectID)
    const target = { store: context, workspace: files.workspace }
    // A new revert is computed from the files as they were before any revert.
    if (previous?.files?.length && previous.snapshot) await restoreFiles({ ...target, snapshot: previous.snapshot, files: previous.files })
    const redo = await takeSnapshot({ ...target, projectID: files.projectID })
    const { patches } = await restorablePatches(context, hiddenPatches(history, point))
    const result = await revertPatches({ ...target, patches })
    for (const failure of result.failed) log.warn(`tabcode: could not revert ${failure.file}`, failure.error)
    restored = { snapshot: redo.id, files: [...result.written, ...result.deleted].sort() }
  }
  const summary = await summaryOf(context, visibleHistory(history, point), session)
  return updateSession(
    context,
    session.id,
    (draft) => {
      draft.revert = { messageID: point.messageID, ...(point.partID ? { partID: point.partID } : {}), ...restored }
      if (summary) draft.summary = summary
    },
    { touch: false },
  )
}

/**
 * Undoes a pending revert: the hidden history shows again, and the files it changed (exactly `revert.files`) are
 * put back from the redo snapshot; the ones absent there are deleted. The caller makes sure the session is idle.
 */
export async function unrevertSession(context: StoreContext, sessionID: string, files?: SessionFiles): Promise<SessionInfo> {
  const session = await getSession(context, sessionID)
  const revert = session.revert
  if (!revert) return session
  if (revert.files?.length && revert.snapshot) {
    if (!files) throw new NotFoundError('workspace', session.projectID)
    const result = await restoreFiles({ store: context, workspace: files.workspace, snapshot: revert.snapshot, files: revert.files })
    for (const failure of result.failed) log.warn(`tabcode: could not restore ${failure.file}`, failure.error)
  }
  const summary = await summaryOf(context, await loadHistory(context, sessionID), session)
  return updateSession(
    context,
    sessionID,
    (draft) => {
      delete draft.revert
      if (summary) draft.summary = summary
    },
    { touch: false },
  )
}

/**
 * Makes a pending revert final, before anything new is added to the session (a prompt, a manual compaction):
 * removes the hidden messages with their parts and saved tool outputs, and the hidden parts of a partly reverted
 * message, in one transaction, and clears `revert`. Files are not touched (a revert of files already happened).
 * Returns the session, or undefined when it had no revert.
 */
export async function finishRevert(context: StoreContext, sessionID: string): Promise<SessionInfo | undefined> {
  const outcome = await removeRevertedRows(context, sessionID, { message: isHiddenMessage, part: isHiddenPart })
  return outcome?.session
}

/**
 * The session's net file changes over the given (visible) turns, as the end of each turn records them, so the diff
 * view and totals leave reverted turns out. Undefined when it cannot be worked out (snapshots gone) or when the
 * session never had any, so nothing is replaced with a wrong zero.
 */
async function summaryOf(
  context: StoreContext,
  history: readonly MessageWithParts[],
  session: SessionInfo,
): Promise<SessionInfo['summary'] | undefined> {
  const turns: TurnRange[] = []
  for (const entry of history) {
    if (entry.info.role !== 'user') continue
    const userID = entry.info.id
    const range = turnRange(history.flatMap((reply) => (reply.info.role === 'assistant' && reply.info.parentID === userID ? reply.parts : [])))
    if (range) turns.push(range)
  }
  if (turns.length === 0 && !session.summary) return undefined
  try {
    const diffs = await sessionDiffs({ store: context, turns })
    return { ...summarizeDiffs(diffs), diffs }
  } catch (error) {
    log.warn('tabcode: could not work out the diffs of the visible turns', error)
    return undefined
  }
}
