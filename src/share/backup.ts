import type { StoreContext } from '../store/context'
import type { RestoredBackup } from '../core/dto/share'
import { NotFoundError } from '../core/errors'
import { ascending } from '../core/id'
import { initialTrust } from '../core/project-files/trust'
import type { Message, Part, Project, SessionInfo } from '../core/schema'
import type { Backup } from './format'
import { importTransaction } from '../store/share'
import { remapTranscript, type IdSource, type ImportRows, type ImportStamp } from './import'
import { ImportInvalidError } from './errors'
import { transcriptProblem, type SessionTranscript } from './transcript'
import { extractAttachments } from './attachments'
import { throwIfCancelled } from '../core/errors'
import type { OperationControl } from '../core/progress'
import { addRowsInBatches } from './write-batches'

function byTimeThenID(a: Message, b: Message): number {
  return a.time.created - b.time.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/**
 * The backup's sessions as transcript trees, rows ordered as the app reads them. A session whose parent is not in
 * the backup becomes a root; a parent chain that loops (only a hand-edited file can have one) is cut.
 */
export function backupTrees(backup: Pick<Backup, 'sessions' | 'messages' | 'parts'>): SessionTranscript[] {
  const sessions = new Map(backup.sessions.map((session) => [session.id, session]))
  const childrenOf = new Map<string, SessionInfo[]>()
  for (const session of backup.sessions) {
    if (!session.parentID || !sessions.has(session.parentID)) continue
    const list = childrenOf.get(session.parentID)
    if (list) list.push(session)
    else childrenOf.set(session.parentID, [session])
  }
  const messagesOf = new Map<string, Message[]>()
  for (const message of backup.messages) {
    const list = messagesOf.get(message.sessionID)
    if (list) list.push(message)
    else messagesOf.set(message.sessionID, [message])
  }
  const partsOf = new Map<string, Part[]>()
  for (const part of backup.parts) {
    const list = partsOf.get(part.messageID)
    if (list) list.push(part)
    else partsOf.set(part.messageID, [part])
  }
  const placed = new Set<string>()
  const build = (info: SessionInfo): SessionTranscript => {
    placed.add(info.id)
    const messages = (messagesOf.get(info.id) ?? []).sort(byTimeThenID).map((message) => ({
      info: message,
      parts: (partsOf.get(message.id) ?? []).filter((part) => part.sessionID === info.id).sort((a, b) => (a.id < b.id ? -1 : 1)),
    }))
    const kids = (childrenOf.get(info.id) ?? []).filter((child) => !placed.has(child.id)).sort((a, b) => (a.id < b.id ? -1 : 1))
    const children = kids.map(build)
    return { info, messages, ...(children.length ? { children } : {}) }
  }
  const roots = backup.sessions.filter((session) => !session.parentID || !sessions.has(session.parentID))
  const trees = roots.map(build)
  // Sessions only reachable through a loop: each becomes a root of its own, its parent link dropped.
  for (const session of backup.sessions) if (!placed.has(session.id)) trees.push(build(session))
  return trees
}

export type { RestoredBackup }

/**
 * Restores a validated backup in one transaction. Projects keep their ids when they still exist here and are
 * recreated otherwise; every session gets new ids (like any import) and is stamped `source: 'backup'` with its
 * original id, so restoring twice, or restoring into the browser that made the backup, adds only what is missing.
 * `control` hears how many messages are written and may cancel, which stores nothing of the backup.
 */
export async function importBackup(
  context: StoreContext,
  backup: Backup,
  options: { hash: string; fallbackProjectID: string; ids?: IdSource },
  control: OperationControl = {},
): Promise<RestoredBackup> {
  const now = context.now()
  const extracted = await Promise.all(backupTrees(backup).map((tree) => extractAttachments(tree)))
  const trees = extracted.map((entry) => entry.transcript)
  const blobs = extracted.flatMap((entry) => entry.blobs)
  // Checked before the transaction, so the error names the problem instead of a storage constraint.
  for (const tree of trees) {
    const problem = transcriptProblem(tree)
    if (problem) throw new ImportInvalidError(problem)
  }
  throwIfCancelled(control.signal, 'The import')
  const result = await importTransaction(context, { withBlobs: blobs.length > 0 }, async (stored) => {
    const projectIDs = new Map<string, string>()
    const created: Project[] = []
    for (const project of backup.projects) {
      if (await stored.projectExists(project.id)) projectIDs.set(project.id, project.id)
      else {
        const origin = { type: 'backup' as const }
        const fresh: Project = { ...project, id: ascending('project', now), origin, trust: initialTrust(origin, now) }
        created.push(fresh)
        projectIDs.set(project.id, fresh.id)
      }
    }
    const stamps = new Set<string>()
    await stored.eachSession((session) => {
      const stamp = session.metadata?.import as ImportStamp | undefined
      if (stamp && typeof stamp.hash === 'string') stamps.add(stamp.hash)
    })
    const present = await stored.presentSessions(trees.map((tree) => tree.info.id))
    const rows: ImportRows = { sessions: [], messages: [], parts: [] }
    const imported: SessionInfo[] = []
    let skipped = 0
    for (const tree of trees) {
      const hash = `${options.hash}/${tree.info.id}`
      if (present.has(tree.info.id) || stamps.has(hash)) {
        skipped += 1
        continue
      }
      const tabled = remapTranscript(tree, {
        projectID: projectIDs.get(tree.info.projectID) ?? options.fallbackProjectID,
        now,
        stamp: { hash, source: 'backup', time: now, originalID: tree.info.id },
        ...(options.ids ? { ids: options.ids } : {}),
      })
      imported.push(tabled.sessions[0]!)
      rows.sessions.push(...tabled.sessions)
      rows.messages.push(...tabled.messages)
      rows.parts.push(...tabled.parts)
    }
    const needed = new Set(rows.sessions.map((session) => session.projectID))
    if (needed.has(options.fallbackProjectID) && !(await stored.projectExists(options.fallbackProjectID))) {
      throw new NotFoundError('project', options.fallbackProjectID)
    }
    const projects = created.filter((project) => needed.has(project.id))
    await addRowsInBatches(stored, { projects, ...rows }, control)
    // Blobs of sessions skipped as present are stored already (content-addressed): adding them again changes nothing.
    if (blobs.length) await stored.addBlobs(blobs)
    return { imported, skipped, projects, rows }
  })
  return {
    imported: result.imported,
    skipped: result.skipped,
    projects: result.projects,
    counts: { sessions: result.rows.sessions.length, messages: result.rows.messages.length, parts: result.rows.parts.length },
  }
}
