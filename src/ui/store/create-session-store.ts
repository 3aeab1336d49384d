import { log } from '../../core/log'
import { describeFailure } from '../kit/format/storage-full'
import { createSignal, onCleanup, type Accessor } from 'solid-js'
import { createStore, produce } from 'solid-js/store'
import type { Part, SessionInfo } from '../../core/schema'
import type { ClientApi } from '../../core/protocol'
import type { WorkerConnection } from '../worker-client'
import { createOpenSession, type OpenSession } from './create-open-session'
import { makeDraftStore, type DraftStore } from './draft-store'
import { createSessionList, type SessionList } from './create-session-list'
import { makeEventQueue, type Scheduler } from './event-queue'
import { addChild, applyEvent } from './reducer'
import { emptyState, type UiState } from './state'

export interface SessionStore {
  readonly state: UiState
  readonly api: ClientApi
  readonly list: SessionList
  readonly current: OpenSession
  partsOf(messageID: string): Part[]
  /** The last failed action, worded for the user, until dismissed or replaced. */
  problem: Accessor<string | undefined>
  dismissProblem(): void
  /**
   * Runs an action; a failure becomes the problem banner ("Couldn't <what>: <reason>") and the answer is undefined.
   * Success clears an earlier problem.
   */
  attempt<T>(what: string, action: () => Promise<T>): Promise<T | undefined>
  /** Puts a session row the worker answered with into the store (its event follows, with the same row). */
  remember(info: SessionInfo): void
  /** Reads a session's subagent sessions into the store (they are not part of the session list). */
  loadChildren(sessionID: string): Promise<void>
  /** Drops a permission question this tab just answered (the reply event does the same for every tab). */
  forgetAsk(askID: string): void
  /** Forgets the live error reported for a session and hides the banner for the stored one (`messageID`). */
  dismissError(sessionID: string, messageID?: string): void
  /** Per session: the id of the message whose error banner the user dismissed. */
  dismissedError(sessionID: string): string | undefined
  /** Prompt drafts per session, kept in memory while the tab lives. */
  readonly drafts: DraftStore
  createSession(): Promise<SessionInfo | undefined>
  rename(sessionID: string, title: string): Promise<boolean>
  setArchived(sessionID: string, archived: boolean): Promise<boolean>
  remove(sessionID: string): Promise<boolean>
}

const NO_PARTS: Part[] = []

/**
 * The UI's copy of committed state and the actions on it. Owner-bound: it listens to worker events until its owner
 * is disposed. Results of our own calls are applied at once; the matching events (which every tab receives)
 * apply the same rows again, which is harmless.
 */
export function createSessionStore(
  connection: WorkerConnection,
  options: {
    projectID?: string
    /** Whether a session opened with no messages here fetches them from the sync server (sync's on-demand). */
    fetchesOnDemand?: () => Promise<boolean>
    /** When live events are applied: at most one update every UPDATE_INTERVAL_MS, in a frame (event-queue.ts). */
    schedule?: Scheduler
  } = {},
): SessionStore {
  const { api } = connection
  const [state, setState] = createStore<UiState>(emptyState())
  const queue = makeEventQueue(
    (events) =>
      setState(
        produce((draft) => {
          for (const event of events) applyEvent(draft, event)
        }),
      ),
    options.schedule,
  )
  onCleanup(connection.listen(queue.push))
  onCleanup(queue.dispose)

  const { fetchesOnDemand, schedule: _schedule, ...listOptions } = options
  const list = createSessionList({ api, state, setState, ...listOptions })
  // Sessions made in this tab start empty on purpose: there is nothing on a server to fetch for them.
  const madeHere = new Set<string>()
  const current = createOpenSession({
    api,
    state,
    setState,
    ...(fetchesOnDemand ? { fetchesOnDemand: async (sessionID: string) => !madeHere.has(sessionID) && (await fetchesOnDemand()) } : {}),
  })
  const [problem, setProblem] = createSignal<string>()
  const [dismissed, setDismissed] = createSignal<Record<string, string>>({})
  const drafts = makeDraftStore()

  // The page may be killed once hidden: streamed text still in the worker's buffer is written now.
  if (typeof document !== 'undefined') {
    const onHide = () => {
      if (document.visibilityState === 'hidden') api.flush().catch((error: unknown) => log.warn('tabcode: flush failed', error))
    }
    document.addEventListener('visibilitychange', onHide)
    onCleanup(() => document.removeEventListener('visibilitychange', onHide))
  }

  // Replaced, not merged: a field the worker dropped (an unreverted session's `revert`) must go here too.
  const upsert = (info: SessionInfo) => setState(produce((draft) => void (draft.sessions[info.id] = info)))

  async function attempt<T>(what: string, action: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await action()
      setProblem(undefined)
      return result
    } catch (error) {
      setProblem(describeFailure(what, error))
      return undefined
    }
  }

  return {
    state,
    api,
    list,
    current,
    partsOf: (messageID) => state.parts[messageID] ?? NO_PARTS,
    problem,
    dismissProblem: () => setProblem(undefined),
    attempt,
    remember: upsert,
    forgetAsk: (askID: string) => setState('asks', askID, undefined!),
    loadChildren: async (sessionID: string) => {
      const children = await api.children(sessionID)
      setState(
        produce((draft) => {
          for (const child of children) {
            if (child.parentID !== sessionID) continue
            draft.sessions[child.id] ??= child
            addChild(draft, sessionID, child.id)
          }
        }),
      )
    },
    dismissError: (sessionID, messageID) => {
      setState(produce((draft) => void delete draft.errors[sessionID]))
      if (messageID) setDismissed((current) => ({ ...current, [sessionID]: messageID }))
    },
    dismissedError: (sessionID) => dismissed()[sessionID],
    drafts,
    createSession: () =>
      attempt('create a session', async () => {
        const info = await api.createSession({})
        madeHere.add(info.id)
        upsert(info)
        await current.open(info.id)
        return info
      }),
    rename: async (sessionID, title) =>
      !!(await attempt('rename the session', async () => {
        upsert(await api.renameSession(sessionID, title))
        return true
      })),
    setArchived: async (sessionID, archived) =>
      !!(await attempt(archived ? 'archive the session' : 'unarchive the session', async () => {
        upsert(await api.archiveSession(sessionID, archived))
        return true
      })),
    remove: async (sessionID) =>
      !!(await attempt('delete the session', async () => {
        const { removed } = await api.removeSession(sessionID)
        setState(
          produce((draft) => {
            for (const id of removed) {
              const info = draft.sessions[id]
              if (info) applyEvent(draft, { type: 'session.deleted', info })
            }
          }),
        )
        for (const id of removed) drafts.forget(id)
        return true
      })),
  }
}
