import type { StoreContext } from '../store/context'
import { clearStaleAsks } from '../store/ask-store'
import { repairSession } from '../store/recovery'
import { queuedPrompts } from '../store/prompt'
import { loadRecentHistory } from '../store/recent-history'
import { findSession } from '../store/session-store'
import { cameWithCopy, turnIsDone, unansweredPrompt } from '../core/history'
import type { CommandChannel, Locks } from './locks'

export const lockName = (sessionID: string) => `tabcode:session:${sessionID}`

/**
 * Closes what a runner that died left open: its half-written turn and its questions. Call only under the session's
 * lock, so no runner lives. Store writes only: the worker's entry runs it on open without the engine.
 */
export async function repairUnderLock(store: StoreContext, sessionID: string): Promise<boolean> {
  const repaired = await repairSession(store, sessionID)
  await clearStaleAsks(store, sessionID)
  return repaired
}

/** Prompts wait in the session's inbox and nothing else is left to answer, so a loop would start the next one. */
export async function promptsWaiting(store: StoreContext, sessionID: string): Promise<boolean> {
  if ((await queuedPrompts(store, sessionID)).length === 0) return false
  return turnIsDone((await loadRecentHistory(store, sessionID)).history)
}

/**
 * What a runner that died (its tab closed, reloaded or crashed) left for the next one, asked right after its turn
 * was repaired: a prompt of the user's that no reply answers (it joined the turn, to be answered at a step that
 * never came), or prompts queued behind the turn. Either runs as it would have (the stored
 * history says what is left to do). Only after a repair: a session the user stopped keeps what waits, as Stop asks,
 * and an imported session is never repaired, so never run. Only a prompt stored in this session: one a fork copied
 * (from a stranger's link, say) is never answered without the user asking.
 */
export async function leftByDeadRunner(store: StoreContext, sessionID: string): Promise<boolean> {
  const { history } = await loadRecentHistory(store, sessionID)
  const prompt = unansweredPrompt(history)
  const session = prompt ? await findSession(store, sessionID) : undefined
  if (prompt && session && !cameWithCopy(prompt.info, session)) return true
  return (await queuedPrompts(store, sessionID)).length > 0 && turnIsDone(history)
}

/** Whether `messageID` is still the session's newest prompt with no reply (`unansweredPrompt`). */
export async function stillUnanswered(store: StoreContext, sessionID: string, messageID: string): Promise<boolean> {
  const { history } = await loadRecentHistory(store, sessionID)
  return unansweredPrompt(history)?.info.id === messageID
}

export interface OpenWithoutRunnerDependencies {
  store: StoreContext
  locks: Locks
  commands: CommandChannel
  /** What a dead runner left is run: the engine's runner starts it (loading the engine if needed). */
  start: (sessionID: string) => void
  /** Another tab holds the session: wait for its lock to come free, then repair (the engine's runner does). */
  watch: (sessionID: string) => void
}

/**
 * `openSession` while no runner lives in this tab (the engine has not loaded): the same repair the runner's
 * `repairIfIdle` does, with the store alone, so a session's history opens (and is repaired) offline before the
 * engine was ever downloaded.
 */
export async function openWithoutRunner(dependencies: OpenWithoutRunnerDependencies, sessionID: string): Promise<{ repaired: boolean }> {
  const { store, locks, commands } = dependencies
  const outcome = await locks.request(lockName(sessionID), { ifAvailable: true }, async (lock) =>
    lock ? { repaired: await repairUnderLock(store, sessionID) } : undefined,
  )
  if (outcome) {
    if (outcome.repaired && (await leftByDeadRunner(store, sessionID))) dependencies.start(sessionID)
    return outcome
  }
  commands.requestStatus(sessionID)
  dependencies.watch(sessionID)
  return { repaired: false }
}
