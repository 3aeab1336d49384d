import type { StoreContext } from './context'
import { ascending } from '../core/id'
import type { Approval, PermissionAsk, PermissionReply } from '../core/schema'
import { evaluate } from '../core/permission/evaluate'
import { approvalsFor, samePinnedTool } from '../core/permission/pinned-approvals'
import { write } from './transaction'

/*
 * The permission rows in IndexedDB: open questions (`asks`) and remembered answers (`approvals`). Every change that
 * decides an outcome happens in one readwrite transaction, which IndexedDB serialises across tabs, so when two tabs
 * answer the same question at once exactly one answer wins.
 */

/** A session's open questions, oldest first. */
export async function sessionAsks(store: StoreContext, sessionID: string): Promise<PermissionAsk[]> {
  return store.db.asks.where('sessionID').equals(sessionID).sortBy('id')
}

/** A project's remembered answers, oldest first: the order they are evaluated in, so a later one wins. */
export async function projectApprovals(store: StoreContext, projectID: string): Promise<Approval[]> {
  return store.db.approvals.where('projectID').equals(projectID).sortBy('id')
}

export async function writeAsk(store: StoreContext, ask: PermissionAsk): Promise<void> {
  await store.db.asks.put(ask)
}

/** Removes a question that is no longer asked; returns it if it was still there (nobody had answered it). */
export async function withdrawAsk(store: StoreContext, askID: string): Promise<PermissionAsk | undefined> {
  const { db } = store
  return write(store, [db.asks], async () => {
    const ask = await db.asks.get(askID)
    if (ask) await db.asks.delete(askID)
    return ask
  })
}

/** What one answer decided, once committed. */
export interface ReplyOutcome {
  ask: PermissionAsk
  /** Other questions of the session that the new approvals now allow (an "always" answer). */
  allowed: PermissionAsk[]
  /** Other questions of the session rejected with it (a "reject" answer). */
  rejected: PermissionAsk[]
  /** The project's approvals after an "always" answer. */
  approvals?: Approval[]
}

/**
 * Applies an answer: removes the question, and for "always" stores an allow approval for each of its `always`
 * patterns (pinned to the question's tool definition, if it has one, replacing one given for another definition) and
 * removes the session's other questions that the approvals alone now allow (opencode evaluates them
 * against the approved list only); for "reject" removes all of the session's other questions. Undefined when the
 * question is gone (answered in another tab, withdrawn).
 */
export async function takeReply(
  store: StoreContext,
  askID: string,
  reply: PermissionReply,
  /** Throws to refuse the answer (it does not fit the question); the question then stays open. */
  accept?: (ask: PermissionAsk) => void,
): Promise<ReplyOutcome | undefined> {
  const { db } = store
  return write(store, [db.asks, db.approvals], async () => {
    const ask = await db.asks.get(askID)
    if (!ask) return undefined
    accept?.(ask)
    await db.asks.delete(askID)
    if (reply.type === 'once' || reply.type === 'answer') return { ask, allowed: [], rejected: [] }
    const others = (await sessionAsks(store, ask.sessionID)).filter((other) => other.id !== askID)
    if (reply.type === 'reject') {
      await db.asks.bulkDelete(others.map((other) => other.id))
      return { ask, allowed: [], rejected: others }
    }
    const stored = await projectApprovals(store, ask.projectID)
    // An approval given for another definition of the same tool is replaced: the user has now allowed this one.
    const replaced = stored.filter(
      (approval) => approval.permission === ask.permission && ask.always.includes(approval.pattern) && approval.action === 'allow' && !samePinnedTool(approval.tool, ask.tool),
    )
    const existing = stored.filter((approval) => !replaced.includes(approval))
    const added: Approval[] = []
    for (const pattern of new Set(ask.always)) {
      const known = existing.some(
        (approval) => approval.permission === ask.permission && approval.pattern === pattern && approval.action === 'allow',
      )
      if (known) continue
      const now = store.now()
      added.push({
        id: ascending('approval', now),
        projectID: ask.projectID,
        permission: ask.permission,
        pattern,
        action: 'allow',
        ...(ask.tool ? { tool: ask.tool } : {}),
        time: { created: now },
      })
    }
    await db.approvals.bulkDelete(replaced.map((approval) => approval.id))
    await db.approvals.bulkAdd(added)
    const approvals = [...existing, ...added]
    const allowed = others.filter((other) => {
      const { holding } = approvalsFor(approvals, other.permission, other.tool)
      return other.patterns.every((pattern) => evaluate(other.permission, pattern, holding).action === 'allow')
    })
    await db.asks.bulkDelete(allowed.map((other) => other.id))
    return { ask, allowed, rejected: [], approvals }
  })
}

/**
 * Removes a session's open questions left by a runner that is gone (its tab closed or crashed mid-question), and
 * tells every tab they are closed (as rejected). The runner calls this while it holds the session's lock and repairs
 * the session: no live loop can be waiting on them then. Returns the removed questions.
 */
export async function clearStaleAsks(store: StoreContext, sessionID: string): Promise<PermissionAsk[]> {
  const { db } = store
  return write(store, [db.asks], async (announce) => {
    const asks = await sessionAsks(store, sessionID)
    await db.asks.bulkDelete(asks.map((ask) => ask.id))
    for (const ask of asks) announce({ type: 'permission.replied', sessionID, askID: ask.id, reply: { type: 'reject' } })
    return asks
  })
}

/** Forgets a remembered answer and tells every tab the project's new list. Does nothing if it is already gone. */
export async function revokeApproval(store: StoreContext, approvalID: string): Promise<void> {
  const { db } = store
  await write(store, [db.approvals], async (announce) => {
    const approval = await db.approvals.get(approvalID)
    if (!approval) return
    await db.approvals.delete(approvalID)
    announce({ type: 'approval.updated', projectID: approval.projectID, approvals: await projectApprovals(store, approval.projectID) })
  })
}
