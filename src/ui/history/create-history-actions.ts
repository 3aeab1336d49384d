import { isImported } from '../../core/read-only'
import { createSignal, type Accessor } from 'solid-js'
import type { Message, SessionInfo } from '../../core/schema'
import { displayTitle } from '../../core/title'
import type { RevertPreview } from '../../core/protocol'
import { isRunning } from '../session/session-status-text'
import type { SessionStore } from '../store/create-session-store'
import { branchPoint } from './branch-point'
import { promptText } from './prompt-text'

/** Where to go after a branch or a click on a fork link; the workbench switches project when the session needs it. */
export interface OpenTarget {
  session: SessionInfo
  /** Said once the session is open ("Branched into …"). */
  notice?: string
  /** Put into the session's prompt box. */
  prompt?: string
}

/** A revert the user asked for and has yet to confirm. */
export interface RevertRequest {
  messageID: string
  partID?: string
  files: boolean
}

export interface HistoryActions {
  sessionID: string
  /** A turn is running: revert and compaction are refused by the worker (BusyError), so the UI offers them disabled. */
  busy: Accessor<boolean>
  /** Why revert and compaction are refused now (a reply is running, or the session was imported), if they are. */
  lockedReason: Accessor<string | undefined>
  pendingRevert: Accessor<RevertRequest | undefined>
  requestRevert(request: RevertRequest): void
  cancelRevert(): void
  previewRevert(request: RevertRequest): Promise<RevertPreview>
  /** Throws the worker's error for the confirmation dialog to show. */
  confirmRevert(request: RevertRequest): Promise<void>
  unrevert(): Promise<void>
  branch(message: Message): Promise<void>
  compact(): Promise<void>
  undoCompaction(messageID: string): Promise<void>
  open(target: OpenTarget): void
}

/** Said in menus while a turn runs. */
export const BUSY_REASON = 'Not while a reply is being written: stop it or wait for it to finish.'
export const READ_ONLY_REASON = 'This session was imported and is read-only: continue it in a fork to change it.'

/**
 * Branch, revert and compaction for the open session. One per session view: the revert confirmation lives here, not
 * in a message row, because the virtual list may unmount the row that asked for it.
 */
export function createHistoryActions(options: { store: SessionStore; sessionID: string; open: (target: OpenTarget) => void }): HistoryActions {
  const { store, sessionID } = options
  const api = store.api
  const [pendingRevert, setPendingRevert] = createSignal<RevertRequest>()
  const busy = () => isRunning(store.state.status[sessionID]) || store.state.sessions[sessionID]?.time.compacting !== undefined
  const point = (request: RevertRequest) => ({ sessionID, messageID: request.messageID, ...(request.partID ? { partID: request.partID } : {}) })

  return {
    sessionID,
    busy,
    lockedReason: () => (store.state.sessions[sessionID] && isImported(store.state.sessions[sessionID]!) ? READ_ONLY_REASON : busy() ? BUSY_REASON : undefined),
    pendingRevert,
    requestRevert: setPendingRevert,
    cancelRevert: () => setPendingRevert(undefined),
    previewRevert: (request) => api.revertPreview(point(request)),
    confirmRevert: async (request) => {
      const info = await api.revertSession({ ...point(request), files: request.files })
      store.remember(info)
      setPendingRevert(undefined)
      // Like opencode: reverting a prompt hands its text back, ready to be edited and sent again.
      const revert = info.revert
      if (!revert || revert.partID) return
      const first = store.current.messages().find((message) => message.id === revert.messageID)
      const text = first?.role === 'user' ? promptText(store.partsOf(first.id)) : ''
      if (text) store.drafts.fill(sessionID, text)
    },
    unrevert: async () => {
      const info = await store.attempt('unrevert', () => api.unrevertSession(sessionID))
      if (info) store.remember(info)
    },
    branch: async (message) => {
      const messageID = branchPoint(store.current.messages(), message)
      const result = await store.attempt('branch the session', () => api.forkSession({ sessionID, ...(messageID ? { messageID } : {}) }))
      if (!result) return
      const prompt = message.role === 'user' ? promptText(store.partsOf(message.id)) : ''
      options.open({
        session: result.session,
        notice: `Branched into “${displayTitle(result.session.title)}”`,
        ...(prompt ? { prompt } : {}),
      })
    },
    compact: async () => {
      await store.attempt('compact the session', () => api.compactSession({ sessionID }))
    },
    undoCompaction: async (messageID) => {
      await store.attempt('undo the compaction', () => api.undoCompaction({ sessionID, messageID }))
    },
    open: options.open,
  }
}
