import type { StoreContext } from '../store/context'
import { parseWith } from '../core/errors'
import type { SessionEvent } from '../core/event'
import { ascending } from '../core/id'
import {
  PermissionAskSchema,
  PermissionReplySchema,
  type Approval,
  type PermissionAsk,
  type PermissionReply,
  type PermissionRule,
} from '../core/schema'
import type { PermissionRequest } from '../core/ports'
import {
  clearStaleAsks,
  projectApprovals,
  revokeApproval,
  sessionAsks,
  takeReply,
  withdrawAsk,
  writeAsk,
} from '../store/ask-store'
import { PermissionCorrectedError, PermissionDeniedError, PermissionRejectedError, permissionAbortError } from '../core/permission/errors'
import { allowsAll, effectiveRules, evaluate, rulesFor } from '../core/permission/evaluate'
import { approvalsFor } from '../core/permission/pinned-approvals'
import { askedQuestions, QUESTION_PERMISSION, QuestionAnswerError, validateAnswers } from '../core/question'

export { clearStaleAsks }

/** The slice of the Web Locks API the service needs (structurally the worker's `Locks`). */
export interface AskLocks {
  request<T>(name: string, options: { ifAvailable?: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>
}

/** Held by the tab that waits on a question for as long as it waits; a question whose lock is free has no asker. */
export const askLockName = (askID: string) => `tabcode:permission:${askID}`

export interface PermissionServiceOptions {
  store: StoreContext
  /**
   * The browser has no Web Locks (or they are not to be used). By default every waiting check holds a lock named
   * after its question, so `pending` can tell a question whose tab died from a live one and drop it. Lockless,
   * dead tabs' questions stay listed until the runner repairs the session (`clearStaleAsks`).
   */
  lockless?: boolean
  /** Defaults to `navigator.locks` when present; tests pass an in-memory one. */
  locks?: AskLocks
}

export interface CheckInput {
  sessionID: string
  projectID: string
  messageID: string
  callID?: string | undefined
  /** The agent's ruleset: defaults, then the built-in agent's rules (`agentRules(name)`). */
  agentRules: readonly PermissionRule[]
  /** The session's own rules; they beat the agent's. */
  sessionRules?: readonly PermissionRule[] | undefined
  /** The user's permission settings; they beat the agent's and lose to the session's. */
  userRules?: readonly PermissionRule[] | undefined
  request: PermissionRequest
  /** The turn's signal: stopping the turn withdraws the question. */
  signal?: AbortSignal | undefined
}

export interface PermissionService {
  /**
   * Resolves when every pattern of the request is allowed, by the rules, by the project's approvals, or by the user.
   * Rejects with `PermissionDeniedError` (a rule denies; nobody is asked), `PermissionRejectedError`,
   * `PermissionCorrectedError` (rejected with feedback), or an `AbortError` when `signal` fires while waiting.
   * A `question` request is always put to the user unless a rule denies it (the rule says whether the agent may
   * ask at all); it resolves with the user's answer.
   */
  check(input: CheckInput): Promise<PermissionReply | undefined>
  /**
   * Answers a question, from any tab: the outcome is written to the database and announced as events, and settles
   * the waiting check here directly or, in another tab, through that tab's `handleRemoteReply`. Answering a question
   * that is already gone does nothing.
   */
  reply(askID: string, reply: PermissionReply): Promise<void>
  /** Feeds an event heard from another tab; a `permission.replied` settles the check waiting on it here, if any. */
  handleRemoteReply(event: SessionEvent): void
  /** A session's open questions, oldest first (without those whose tab died, unless lockless). */
  pending(sessionID: string): Promise<PermissionAsk[]>
  listApprovals(projectID: string): Promise<Approval[]>
  revokeApproval(approvalID: string): Promise<void>
}

interface Waiter {
  resolve(reply: PermissionReply): void
  reject(error: Error): void
}

function failureOf(askID: string, reply: PermissionReply): Error | undefined {
  if (reply.type !== 'reject') return undefined
  const feedback = reply.feedback?.trim()
  return feedback ? new PermissionCorrectedError(askID, feedback) : new PermissionRejectedError(askID)
}

/** Throws unless the reply fits the ask: an answer goes only to a question, and must fit its questions. */
function acceptable(ask: PermissionAsk, reply: PermissionReply) {
  const questions = askedQuestions(ask)
  if (reply.type === 'answer') {
    if (!questions) throw new QuestionAnswerError(0, `${ask.permission} asks for permission, not for answers: allow or reject it.`)
    validateAnswers(questions, reply.answers)
  } else if (questions && reply.type !== 'reject') {
    throw new QuestionAnswerError(0, 'a question is answered (or dismissed), not allowed.')
  }
}

function browserLocks(): AskLocks | undefined {
  return (globalThis.navigator as (Navigator & { locks?: AskLocks }) | undefined)?.locks
}

export function createPermissionService(options: PermissionServiceOptions): PermissionService {
  const { store } = options
  const locks = options.lockless ? undefined : (options.locks ?? browserLocks())
  /** Checks of this instance waiting for an answer, by question id. */
  const waiting = new Map<string, Waiter>()

  /** Settles the check waiting on `askID` here, once; later answers for it (echoes, races) are ignored. */
  function settle(askID: string, reply: PermissionReply) {
    const waiter = waiting.get(askID)
    if (!waiter) return
    waiting.delete(askID)
    const failure = failureOf(askID, reply)
    if (failure) waiter.reject(failure)
    else waiter.resolve(reply)
  }

  function announce(ask: PermissionAsk, reply: PermissionReply) {
    store.emit({ type: 'permission.replied', sessionID: ask.sessionID, askID: ask.id, reply })
  }

  /** Takes the question back when its turn stops. The row goes first, so a rejected check has left nothing behind. */
  async function withdraw(askID: string) {
    const waiter = waiting.get(askID)
    if (!waiter) return
    waiting.delete(askID)
    const aborted = permissionAbortError()
    try {
      const ask = await withdrawAsk(store, askID)
      if (ask) announce(ask, { type: 'reject' })
    } catch (error) {
      // The turn stops either way; a row left behind is dropped by `pending` or by the repair's `clearStaleAsks`.
      Object.assign(aborted, { cause: error })
    }
    waiter.reject(aborted)
  }

  async function wait(ask: PermissionAsk, signal: AbortSignal | undefined): Promise<PermissionReply> {
    // Registered before the row exists: an answer can only come after the question is seen, so none is missed.
    const answered = new Promise<PermissionReply>((resolve, reject) => waiting.set(ask.id, { resolve, reject }))
    const onAbort = () => void withdraw(ask.id)
    try {
      await writeAsk(store, ask)
    } catch (error) {
      waiting.delete(ask.id)
      throw error
    }
    store.emit({ type: 'permission.asked', ask })
    // Listening only once the row is written: an abort during the write is seen here and withdraws it.
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await answered
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
  }

  async function check(input: CheckInput): Promise<PermissionReply | undefined> {
    const { request } = input
    const rules = effectiveRules(input)
    // Stored approvals are only ever "allow" (an "always" answer writes them, `takeReply`), so where the rules alone
    // allow every pattern they cannot change the answer: a `read` step asks storage nothing (issue 32).
    if (request.permission !== QUESTION_PERMISSION && allowsAll(request.permission, request.patterns, rules)) return undefined
    // A tool its server may redefine is allowed by an approval only while it is what the user allowed (issue 27).
    const { holding: approvals, changedFrom } = approvalsFor(await projectApprovals(store, input.projectID), request.permission, request.tool)
    let needsAsk = request.permission === QUESTION_PERMISSION
    for (const pattern of request.patterns) {
      const rule = evaluate(request.permission, pattern, rules, approvals)
      if (rule.action === 'deny') {
        throw new PermissionDeniedError({
          permission: request.permission,
          pattern,
          rule,
          rules: rulesFor(request.permission, rules),
        })
      }
      if (rule.action === 'ask') needsAsk = true
    }
    if (!needsAsk) return undefined
    if (input.signal?.aborted) throw permissionAbortError()
    const now = store.now()
    const ask = parseWith(
      PermissionAskSchema,
      {
        id: ascending('permission', now),
        sessionID: input.sessionID,
        projectID: input.projectID,
        messageID: input.messageID,
        ...(input.callID !== undefined ? { callID: input.callID } : {}),
        permission: request.permission,
        patterns: request.patterns,
        always: request.always,
        metadata: request.metadata,
        ...(request.tool ? { tool: request.tool } : {}),
        ...(changedFrom ? { changedFrom } : {}),
        time: { created: now },
      },
      'permission ask',
    )
    // The lock is taken before the row is written, so a row whose lock is free belongs to a tab that is gone.
    const reply = await (locks ? locks.request(askLockName(ask.id), {}, () => wait(ask, input.signal)) : wait(ask, input.signal))
    // Only a question's caller reads the reply (its answers); a permission is simply granted.
    return request.permission === QUESTION_PERMISSION ? reply : undefined
  }

  async function reply(askID: string, answer: PermissionReply): Promise<void> {
    const parsed = parseWith(PermissionReplySchema, answer, 'permission reply')
    const outcome = await takeReply(store, askID, parsed, (ask) => acceptable(ask, parsed))
    if (!outcome) return
    announce(outcome.ask, parsed)
    settle(askID, parsed)
    if (outcome.approvals) store.emit({ type: 'approval.updated', projectID: outcome.ask.projectID, approvals: outcome.approvals })
    for (const ask of outcome.allowed) {
      announce(ask, { type: 'always' })
      settle(ask.id, { type: 'always' })
    }
    for (const ask of outcome.rejected) {
      announce(ask, { type: 'reject' })
      settle(ask.id, { type: 'reject' })
    }
  }

  /** Whether the tab that asked is still there: it holds the question's lock while it waits. */
  async function isLive(ask: PermissionAsk): Promise<boolean> {
    if (!locks || waiting.has(ask.id)) return true
    return locks.request(askLockName(ask.id), { ifAvailable: true }, async (lock) => {
      if (lock === null) return true
      // Nobody holds it, so nobody waits: withdraw while holding it, so the row cannot be mistaken twice.
      const stale = await withdrawAsk(store, ask.id)
      if (stale) announce(stale, { type: 'reject' })
      return false
    })
  }

  async function pending(sessionID: string): Promise<PermissionAsk[]> {
    const asks = await sessionAsks(store, sessionID)
    const live = await Promise.all(asks.map(isLive))
    return asks.filter((_, index) => live[index])
  }

  return {
    check,
    reply,
    handleRemoteReply(event) {
      if (event.type === 'permission.replied') settle(event.askID, event.reply)
    },
    pending,
    listApprovals: (projectID) => projectApprovals(store, projectID),
    revokeApproval: (approvalID) => revokeApproval(store, approvalID),
  }
}
