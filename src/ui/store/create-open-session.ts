import { batch, createEffect, createMemo, createSignal, type Accessor } from 'solid-js'
import { produce, type SetStoreFunction } from 'solid-js/store'
import { NotFoundError } from '../../core/errors'
import { log } from '../../core/log'
import type { Message, SessionInfo } from '../../core/schema'
import type { ClientApi } from '../../core/protocol'
import { errorMessage } from '../kit/format/error'
import { applyHistory, unloadHistory } from './reducer'
import type { UiState } from './state'

export const MESSAGE_PAGE_SIZE = 50
/** Pages read while looking for a message to reveal: bigger, since nothing is shown until it is found. */
export const REVEAL_PAGE_SIZE = 200

export interface OpenSession {
  id: Accessor<string | undefined>
  info: Accessor<SessionInfo | undefined>
  messages: Accessor<Message[]>
  hasOlder: Accessor<boolean>
  loading: Accessor<boolean>
  /** The session's messages are being fetched from the sync server (on demand: none were here yet). */
  fetching: Accessor<boolean>
  error: Accessor<string | undefined>
  /** The worker found the last reply cut off by a tab that died, and closed it. */
  repaired: Accessor<boolean>
  dismissRepaired(): void
  open(sessionID: string): Promise<void>
  close(): void
  loadOlder(): Promise<void>
  /**
   * Asks for a message of a session to be shown (a search hit): once that session is open, older pages load until
   * the message is among them. The conversation view then scrolls to it and calls `revealed`.
   */
  reveal(sessionID: string, messageID: string): void
  /** The message to show, once it is loaded in the open session. */
  revealing: Accessor<string | undefined>
  revealed(): void
}

/**
 * The one session whose history is loaded. Opening another unloads the previous one, so memory and event work
 * track the open session, not everything the user has looked at.
 */
export function createOpenSession(options: {
  api: ClientApi
  state: UiState
  setState: SetStoreFunction<UiState>
  /** Whether this session, found with no messages here, should fetch them from the sync server first. */
  fetchesOnDemand?: (sessionID: string) => Promise<boolean>
}): OpenSession {
  const { api, state, setState } = options
  const [id, setID] = createSignal<string>()
  const [cursor, setCursor] = createSignal<string>()
  const [loading, setLoading] = createSignal(false)
  const [fetching, setFetching] = createSignal(false)
  const [error, setError] = createSignal<string>()
  const [repaired, setRepaired] = createSignal(false)
  const [target, setTarget] = createSignal<{ sessionID: string; messageID: string }>()

  const info = createMemo(() => {
    const current = id()
    return current ? state.sessions[current] : undefined
  })
  const messages = createMemo(() => {
    const current = id()
    return (current && state.messages[current]) || []
  })

  function close(): void {
    const previous = id()
    batch(() => {
      if (previous) setState(produce((draft) => unloadHistory(draft, previous)))
      setID(undefined)
      setCursor(undefined)
      setError(undefined)
      setLoading(false)
      setFetching(false)
      setRepaired(false)
    })
  }

  // Both run beside the first page: the repair's rows arrive as events, which the reducer applies to the (empty or
  // loaded) list, and events win over the page either way. Todos from an event that beat the read are newer.
  function prepare(sessionID: string): void {
    api.openSession(sessionID).then(
      (result) => {
        if (id() === sessionID && result.repaired) setRepaired(true)
      },
      (problem: unknown) => {
        if (id() === sessionID) setError(`Couldn't check the last reply: ${errorMessage(problem)}`)
      },
    )
    api.todos(sessionID).then(
      (todos) => {
        if (!state.todos[sessionID]) setState('todos', sessionID, todos)
      },
      (problem: unknown) => log.warn('tabcode: could not read the todo list', problem),
    )
    // Prompts queued before this tab opened the session (perhaps by another tab) show as chips and run in order.
    api.queuedPrompts(sessionID).then(
      (entries) => {
        if (!state.queued[sessionID]) setState('queued', sessionID, entries)
      },
      (problem: unknown) => log.warn('tabcode: could not read the queued prompts', problem),
    )
    // Questions asked before this tab opened the session (or by a runner in another tab) still need an answer.
    api.pendingAsks(sessionID).then(
      (asks) => {
        for (const ask of asks) if (!state.asks[ask.id]) setState('asks', ask.id, ask)
      },
      (problem: unknown) => log.warn('tabcode: could not read pending permission questions', problem),
    )
  }

  async function open(sessionID: string): Promise<void> {
    if (id() === sessionID) return
    // One change from the old session to the new: what follows the open session (the address, whose history entry
    // Back returns to) never sees none open in between.
    batch(() => {
      close()
      if (target()?.sessionID !== sessionID) setTarget(undefined)
      setID(sessionID)
      setLoading(true)
      // An empty list first, so events that arrive while the first page loads are kept (the reducer only
      // applies message events to loaded sessions).
      setState(produce((draft) => void (draft.messages[sessionID] ??= [])))
    })
    prepare(sessionID)
    try {
      if (!state.sessions[sessionID]) {
        const fetched = await api.getSession(sessionID)
        if (id() !== sessionID) return
        setState('sessions', sessionID, fetched)
      }
      let page = await api.pageMessages({ sessionID, limit: MESSAGE_PAGE_SIZE })
      if (id() !== sessionID) return
      if (page.messages.length === 0 && (await options.fetchesOnDemand?.(sessionID))) {
        if (id() !== sessionID) return
        page = await fetchSynced(sessionID)
        if (id() !== sessionID) return
      }
      batch(() => {
        setState(produce((draft) => applyHistory(draft, sessionID, page.messages)))
        setCursor(page.nextCursor)
      })
    } catch (problem) {
      if (id() === sessionID) setError(openProblem(sessionID, problem))
    } finally {
      if (id() === sessionID) setLoading(false)
    }
  }

  /** Takes the session's messages from the sync server, then reads its first page again. */
  async function fetchSynced(sessionID: string): Promise<Awaited<ReturnType<ClientApi['pageMessages']>>> {
    setFetching(true)
    try {
      await api.fetchSyncedSession({ sessionID })
    } catch (problem) {
      // Offline, or the server failed: what is here is shown, and opening it again tries again.
      if (id() === sessionID) setError(`Couldn't fetch this session's messages from the sync server: ${errorMessage(problem)}`)
    } finally {
      if (id() === sessionID) setFetching(false)
    }
    return api.pageMessages({ sessionID, limit: MESSAGE_PAGE_SIZE })
  }

  async function loadOlder(limit = MESSAGE_PAGE_SIZE): Promise<void> {
    const sessionID = id()
    const before = cursor()
    if (!sessionID || !before || loading()) return
    setLoading(true)
    setError(undefined)
    try {
      const page = await api.pageMessages({ sessionID, limit, before })
      if (id() !== sessionID) return
      batch(() => {
        setState(produce((draft) => applyHistory(draft, sessionID, page.messages)))
        setCursor(page.nextCursor)
      })
    } catch (problem) {
      if (id() === sessionID) setError(`Couldn't load older messages: ${errorMessage(problem)}`)
    } finally {
      if (id() === sessionID) setLoading(false)
    }
  }

  // A message to reveal further back than what is loaded: read older pages until it is there, or nothing older is
  // left (it was deleted, or reverted away, since the search), which drops the request.
  const wanted = createMemo(() => {
    const request = target()
    return request && request.sessionID === id() ? request.messageID : undefined
  })
  const loaded = createMemo(() => {
    const messageID = wanted()
    return messageID !== undefined && messages().some((message) => message.id === messageID)
  })
  createEffect(() => {
    if (wanted() === undefined || loaded() || loading() || error()) return
    if (cursor() === undefined) setTarget(undefined)
    else void loadOlder(REVEAL_PAGE_SIZE)
  })

  // Deleted here or in another tab: there is nothing left to show.
  createEffect(() => {
    const current = id()
    if (current && !loading() && !error() && !state.sessions[current]) close()
  })

  return {
    id,
    info,
    messages,
    hasOlder: () => cursor() !== undefined,
    loading,
    fetching,
    error,
    repaired,
    dismissRepaired: () => setRepaired(false),
    open,
    close,
    loadOlder: () => loadOlder(),
    reveal: (sessionID, messageID) => setTarget({ sessionID, messageID }),
    revealing: () => (loaded() ? wanted() : undefined),
    revealed: () => setTarget(undefined),
  }
}

/** Why a session did not open, in words: an address of a session this browser does not hold says so. */
export function openProblem(sessionID: string, problem: unknown): string {
  if (NotFoundError.isInstance(problem) && problem.data.kind === 'session') return `There is no session ${sessionID} here: it was deleted, or its address comes from another browser or profile.`
  return `Couldn't open the session: ${errorMessage(problem)}`
}
