import type { StoreContext } from '../store/context'
import type { ImportedSession } from '../core/dto/share'
import { NotFoundError } from '../core/errors'
import { ascending, descending } from '../core/id'
import type { FilePart, Message, Part, SessionInfo } from '../core/schema'
import type { ProjectRows } from '../store/project-rows'
import { findRootSession, importTransaction } from '../store/share'
import { ImportInvalidError } from './errors'
import type { SessionTranscript } from './transcript'
import { extractAttachments } from './attachments'
import { throwIfCancelled } from '../core/errors'
import type { OperationControl } from '../core/progress'
import { addRowsInBatches } from './write-batches'

export type ImportSource = 'link' | 'file' | 'opencode' | 'backup'

/**
 * Stamped on every session an import writes, as `metadata.import`. Its presence marks the session read-only
 * (the UI offers "continue in a fork"; nothing runs by itself), and `hash` is how a second opening of the same
 * input finds the first instead of writing a copy.
 */
export interface ImportStamp {
  hash: string
  source: ImportSource
  time: number
  /** The id the root session had where it was exported (backups use it to skip sessions still present). */
  originalID?: string
}

export interface ImportRows {
  sessions: SessionInfo[]
  messages: Message[]
  parts: Part[]
}

export interface IdSource {
  ascending: (kind: 'message' | 'part', now?: number) => string
  descending: (kind: 'session', now?: number) => string
}

const sharedIds: IdSource = { ascending, descending }

export interface RemapOptions {
  projectID: string
  stamp: ImportStamp
  now: number
  ids?: IdSource
}

/**
 * The transcript's rows with new ids: messages and parts ascending in their order (so they page exactly as
 * before), sessions descending like every session id, assigned so that children list in the same order.
 * References inside the tree are rewritten to the new ids; references out of it (a revert point or compaction
 * tail that is not in the transcript) are dropped rather than left dangling. Pure: ids and clock are injected.
 */
export function remapTranscript(transcript: SessionTranscript, options: RemapOptions): ImportRows {
  const ids = options.ids ?? sharedIds
  const nodes: { node: SessionTranscript; parentIndex?: number }[] = []
  const collect = (node: SessionTranscript, parentIndex?: number) => {
    const index = nodes.length
    nodes.push({ node, ...(parentIndex === undefined ? {} : { parentIndex }) })
    for (const child of node.children ?? []) collect(child, index)
  }
  collect(transcript)
  // Descending ids sort newest first; minting them from the last node back makes the tree's order the sort order.
  const sessionIDs = new Array<string>(nodes.length)
  for (let index = nodes.length - 1; index >= 0; index--) sessionIDs[index] = ids.descending('session', options.now)
  const sessionMap = new Map<string, string>()
  nodes.forEach(({ node }, index) => sessionMap.set(node.info.id, sessionIDs[index]!))

  const rows: ImportRows = { sessions: [], messages: [], parts: [] }
  nodes.forEach(({ node, parentIndex }, index) => {
    const sessionID = sessionIDs[index]!
    const messageMap = new Map<string, string>()
    const partMap = new Map<string, string>()
    for (const message of node.messages) {
      if (!messageMap.has(message.info.id)) messageMap.set(message.info.id, ids.ascending('message', options.now))
      for (const part of message.parts) {
        if (!partMap.has(part.id)) partMap.set(part.id, ids.ascending('part', options.now))
      }
    }
    let lastUser: string | undefined
    for (const message of node.messages) {
      const messageID = messageMap.get(message.info.id)!
      const info = message.info
      if (info.role === 'user') {
        rows.messages.push({ ...info, id: messageID, sessionID })
        lastUser = messageID
      } else {
        const parentID = messageMap.get(info.parentID) ?? lastUser
        if (!parentID) throw new ImportInvalidError(`assistant message ${info.id} answers no message in the session`)
        rows.messages.push({ ...info, id: messageID, sessionID, parentID })
      }
      for (const part of message.parts) rows.parts.push(remapPart(part, { id: partMap.get(part.id)!, sessionID, messageID }, messageMap, ids, options.now))
    }
    rows.sessions.push(remapSession(node.info, { sessionID, parentID: parentIndex === undefined ? undefined : sessionIDs[parentIndex], index }, options, messageMap, partMap, sessionMap))
  })
  return rows
}

function remapSession(
  info: SessionInfo,
  place: { sessionID: string; parentID: string | undefined; index: number },
  options: RemapOptions,
  messageMap: Map<string, string>,
  partMap: Map<string, string>,
  sessionMap: Map<string, string>,
): SessionInfo {
  const { id: _id, parentID: _parent, share: _share, workspaceID: _workspace, revert, fork, ...rest } = info
  const stamp: ImportStamp = place.index === 0 ? options.stamp : { ...options.stamp, originalID: undefined }
  const session: SessionInfo = {
    ...rest,
    id: place.sessionID,
    projectID: options.projectID,
    ...(place.parentID ? { parentID: place.parentID } : {}),
    // Whatever the input says about an earlier import is replaced: the stamp is ours, not the sender's.
    metadata: { ...info.metadata, import: withoutUndefined(stamp) },
  }
  if (fork) session.fork = { ...fork, sessionID: sessionMap.get(fork.sessionID) ?? fork.sessionID }
  const revertMessage = revert && messageMap.get(revert.messageID)
  if (revert && revertMessage) {
    const partID = revert.partID && partMap.get(revert.partID)
    const { partID: _partID, ...kept } = revert
    session.revert = { ...kept, messageID: revertMessage, ...(partID ? { partID } : {}) }
  }
  return session
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T
}

function remapPart(
  part: Part,
  place: { id: string; sessionID: string; messageID: string },
  messageMap: Map<string, string>,
  ids: IdSource,
  now: number,
): Part {
  const moved = { ...part, ...place } as Part
  if (moved.type === 'compaction') {
    const tail = moved.tail_start_id && messageMap.get(moved.tail_start_id)
    if (tail) moved.tail_start_id = tail
    else delete moved.tail_start_id
  }
  if (moved.type === 'tool' && moved.state.status === 'completed' && moved.state.attachments) {
    const attachments: FilePart[] = moved.state.attachments.map((file) => ({
      ...file,
      id: ids.ascending('part', now),
      sessionID: place.sessionID,
      messageID: place.messageID,
    }))
    moved.state = { ...moved.state, attachments }
  }
  return moved
}

export type { ImportedSession }

function stampOf(session: SessionInfo): ImportStamp | undefined {
  const stamp = session.metadata?.import
  return stamp && typeof stamp === 'object' ? (stamp as ImportStamp) : undefined
}

/**
 * The root session an earlier import of the same input wrote, if any. A scan, not an index: imports are rare and
 * this reads only the session rows.
 */
export async function findImported(context: Pick<StoreContext, 'db'>, hash: string): Promise<SessionInfo | undefined> {
  return findRootSession(context, (session) => stampOf(session)?.hash === hash)
}

/**
 * Writes a validated transcript as new rows in one transaction (all or nothing), or returns the session an
 * earlier import of the same input made. The transcript must come from `validateTranscript` or equivalent.
 * With `project` (an export's workspace files), the new project, its files and blobs go in the same
 * transaction and the sessions join it: a failure or a killed tab leaves none of it, so trying again makes one copy.
 * `control` hears how many messages are written and may cancel, which leaves none of it either.
 */
export async function importTranscript(
  context: StoreContext,
  transcript: SessionTranscript,
  options: { projectID: string; source: ImportSource; hash: string; ids?: IdSource; project?: ProjectRows },
  control: OperationControl = {},
): Promise<ImportedSession> {
  const now = context.now()
  const projectID = options.project?.project.id ?? options.projectID
  // opencode's file parts are its own (a text file's content went in as text beside it); ours go back into blobs.
  const { transcript: tree, blobs } = options.source === 'opencode' ? { transcript, blobs: [] } : await extractAttachments(transcript)
  const rows = remapTranscript(tree, {
    projectID,
    now,
    stamp: { hash: options.hash, source: options.source, time: now, originalID: transcript.info.id },
    ...(options.ids ? { ids: options.ids } : {}),
  })
  const project = options.project
  throwIfCancelled(control.signal, 'The import')
  const result = await importTransaction(context, { withFiles: project !== undefined, withBlobs: blobs.length > 0 }, async (stored) => {
    const existing = await stored.findRootSession((session) => stampOf(session)?.hash === options.hash)
    if (existing) return { session: existing, duplicate: true as const }
    if (project) await stored.addProject(project)
    else if (!(await stored.projectExists(projectID))) throw new NotFoundError('project', projectID)
    // Added, not put: a collision must fail the whole import rather than overwrite a row.
    await addRowsInBatches(stored, rows, control)
    if (blobs.length) await stored.addBlobs(blobs)
    return { session: rows.sessions[0]!, duplicate: false as const, ...(project ? { project: project.project } : {}) }
  })
  return {
    ...result,
    counts: result.duplicate
      ? { sessions: 0, messages: 0, parts: 0 }
      : { sessions: rows.sessions.length, messages: rows.messages.length, parts: rows.parts.length },
  }
}
