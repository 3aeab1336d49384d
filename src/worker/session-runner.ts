import type { SessionStatus } from '../core/event'
import type { LoopDependencies } from '../session/loop'
import { runLoop } from '../session/loop'
import type { PartWriter } from '../store/part-writer'
import { BusyError, serializeError } from '../core/errors'
import { leftByDeadRunner, lockName, promptsWaiting, repairUnderLock, stillUnanswered } from './session-repair'

import type { CommandChannel, Locks } from './locks'
export type { CommandChannel, Locks } from './locks'
export { makeLocalLocks } from './locks'

export { lockName } from './session-repair'

interface Run {
  controller: AbortController
  writer?: PartWriter | undefined
  /** Set while waiting for another tab's runner: that runner answers our prompt, and we only check afterwards. */
  waiting: boolean
  /** A prompt arrived while this run was ending: look once more, so it is never left unanswered. */
  again: boolean
}

/**
 * One runner per session across tabs. Every start asks for the session's exclusive Web Lock:
 * if another tab holds it, the request waits, the other tab's loop answers the stored prompt at its next step, and
 * when our turn comes the loop finds nothing left to do. Cancel reaches whichever tab runs the session.
 */
export class SessionRunner {
  private readonly runs = new Map<string, Run>()
  /** The last status this tab's loops reported, to repeat it for tabs that open a running session. */
  private readonly statuses = new Map<string, SessionStatus>()
  private readonly dependencies: Omit<LoopDependencies, 'onWriter'>

  constructor(
    dependencies: Omit<LoopDependencies, 'onWriter'>,
    private readonly locks: Locks,
    private readonly commands: CommandChannel,
  ) {
    this.dependencies = {
      ...dependencies,
      setStatus: (sessionID, status) => {
        if (status.type === 'idle') this.statuses.delete(sessionID)
        else this.statuses.set(sessionID, status)
        dependencies.setStatus(sessionID, status)
      },
    }
    commands.onCancel((sessionID) => this.abortLocal(sessionID))
    commands.onStatusRequest((sessionID) => {
      const status = this.statuses.get(sessionID)
      if (status && this.runs.has(sessionID)) dependencies.setStatus(sessionID, status)
    })
  }

  isRunning(sessionID: string): boolean {
    return this.runs.has(sessionID)
  }

  /**
   * Whether a loop runs (or waits to run) the session in this tab, or any tab holds its lock. A tab that is only
   * repairing or checking holds the lock for a moment too, and counts as busy then: the caller just tries again.
   */
  async isBusy(sessionID: string): Promise<boolean> {
    if (this.runs.has(sessionID)) return true
    return this.locks.request(lockName(sessionID), { ifAvailable: true }, async (lock) => !lock)
  }

  /**
   * Runs `operation` holding the session's lock, so no loop in any tab can start on the session meanwhile (a
   * prompt arriving then waits for it); fails with a BusyError at once if the session runs. `action` completes the
   * error's sentence: "… before you <action>".
   */
  async whileIdle<T>(sessionID: string, action: string, operation: () => Promise<T>): Promise<T> {
    if (this.runs.has(sessionID)) throw new BusyError(sessionID, action)
    const outcome = await this.locks.request(lockName(sessionID), { ifAvailable: true }, async (lock) => {
      if (!lock || this.runs.has(sessionID)) return { busy: true as const }
      return { busy: false as const, value: await operation() }
    })
    if (outcome.busy) throw new BusyError(sessionID, action)
    return outcome.value
  }

  /**
   * Makes sure a loop will look at this session; resolves when that loop has ended. With `onlyIf`, the loop starts
   * only if it holds once the lock is (no runner anywhere then).
   */
  start(sessionID: string, options: { resume?: boolean; onlyIf?: () => Promise<boolean> } = {}): Promise<void> {
    const current = this.runs.get(sessionID)
    if (current) {
      current.again = true
      return Promise.resolve()
    }
    const run: Run = { controller: new AbortController(), waiting: true, again: false }
    this.runs.set(sessionID, run)
    const signal = run.controller.signal
    return this.locks
      .request(lockName(sessionID), { signal }, async () => {
        run.waiting = false
        if (options.onlyIf && !(await options.onlyIf())) return
        await runLoop(
          { ...this.dependencies, onWriter: (writer) => (run.writer = writer) },
          sessionID,
          { signal, ...(options.resume ? { resume: true } : {}) },
        )
        // The loop promotes queued prompts only after a turn it finished well; one that ended in an error (or was
        // set going when the queue filled just as it ended) leaves them, so the runner starts the next one itself.
        // Stop keeps them waiting, as opencode's V2 inbox does: the user asked for the work to stop.
        if (!signal.aborted && (await this.promptsWaiting(sessionID))) run.again = true
      })
      .catch((error: unknown) => {
        if (signal.aborted) return
        // A full disk is named in words the user can act on, however Dexie wrapped it.
        const { message } = serializeError(error)
        this.dependencies.store.emit({ type: 'session.error', sessionID, error: { name: 'UnknownError', data: { message } } })
        this.dependencies.setStatus(sessionID, { type: 'idle' })
      })
      .finally(() => {
        if (this.runs.get(sessionID) === run) this.runs.delete(sessionID)
        if (run.again && !signal.aborted) void this.start(sessionID)
      })
  }

  /**
   * Answers the prompt `messageID` (the user asked to) if, once this tab holds the session's lock, it is still the
   * newest prompt and has no reply; otherwise nothing runs, not even a queue that a Stop left waiting. Never a
   * resume: a prompt answered meanwhile, even by a reply that failed or that the user stopped, is not run again. A
   * loop that runs the session here already answers what has no reply at its next step.
   */
  answer(sessionID: string, messageID: string): Promise<void> {
    if (this.runs.has(sessionID)) return Promise.resolve()
    return this.start(sessionID, { onlyIf: () => stillUnanswered(this.dependencies.store, sessionID, messageID) })
  }

  /** Stops the session here and in every other tab. */
  cancel(sessionID: string): void {
    this.abortLocal(sessionID)
    this.commands.cancel(sessionID)
    // With no runner anywhere, the status is still cleared so no tab shows it busy.
    this.dependencies.setStatus(sessionID, { type: 'idle' })
  }

  private abortLocal(sessionID: string): void {
    this.runs.get(sessionID)?.controller.abort()
  }

  private readonly watched = new Set<string>()

  /**
   * Another tab said it runs this session. Wait in line for its lock: the lock comes free when that run ends or its
   * tab dies. Then, if nothing runs here, repair what a dead runner left open and announce idle, so no tab keeps
   * showing "working" for a runner that is gone.
   */
  watch(sessionID: string): void {
    if (this.runs.has(sessionID) || this.watched.has(sessionID)) return
    this.watched.add(sessionID)
    void this.locks
      .request(lockName(sessionID), {}, async () => {
        if (this.runs.has(sessionID)) return
        const repaired = await this.repair(sessionID)
        this.dependencies.setStatus(sessionID, { type: 'idle' })
        // The runner died mid-turn (its tab closed or reloaded): nobody else will answer what it left.
        if (repaired && (await leftByDeadRunner(this.dependencies.store, sessionID))) void this.start(sessionID)
      })
      .catch(() => {})
      .finally(() => this.watched.delete(sessionID))
  }

  /** Under the session's lock, so no runner lives: its half-written turn is closed and its questions withdrawn. */
  private repair(sessionID: string): Promise<boolean> {
    return repairUnderLock(this.dependencies.store, sessionID)
  }

  private promptsWaiting(sessionID: string): Promise<boolean> {
    return promptsWaiting(this.dependencies.store, sessionID)
  }

  /** Writes streamed text of every running session now (the page is being hidden). */
  async flush(): Promise<void> {
    await Promise.all([...this.runs.values()].map((run) => run.writer?.flush()))
  }

  /**
   * Repairs a session left half-written by a runner that died, unless a live runner (in any tab) holds it; in that
   * case the runner is asked to announce its status, so this tab shows it busy and can stop it.
   */
  async repairIfIdle(sessionID: string): Promise<boolean> {
    const status = this.statuses.get(sessionID)
    if (this.runs.has(sessionID)) {
      if (status) this.dependencies.setStatus(sessionID, status)
      return false
    }
    const repaired = await this.locks.request(lockName(sessionID), { ifAvailable: true }, async (lock) =>
      lock ? { repaired: await this.repair(sessionID) } : undefined,
    )
    if (repaired) {
      // What a dead runner left (the tab that ran it reloaded mid-turn) runs here, after the repaired turn.
      if (repaired.repaired && (await leftByDeadRunner(this.dependencies.store, sessionID))) void this.start(sessionID)
      return repaired.repaired
    }
    this.commands.requestStatus(sessionID)
    // The holder may be a tab that is going away (this one, reloaded): once its lock frees, repair and run its queue.
    this.watch(sessionID)
    return false
  }
}
