import { NotFoundError } from '../../core/errors'
import { sessionTitle } from '../kit/format/time'
import { isImported } from '../../core/read-only'
import { createSignal, type Accessor } from 'solid-js'
import type { AssistantMessage, Message, PromptPartInput, SessionInfo, UserMessage } from '../../core/schema'
import { attachedParts } from '../../core/attachments'
import type { RevertPreview } from '../../core/protocol'
import { isRunning } from '../kit/format/session-status-text'
import type { SessionStore } from '../store/create-session-store'
import { branchPoint } from './branch-point'
import { promptText } from './prompt-text'
import { visibleMessages } from './revert-cut'
import { CONTINUE_PROMPT } from './turn-actions'

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
  /** The user message being edited in place for Edit and resend, if any. */
  editing: Accessor<string | undefined>
  startEdit(messageID: string): void
  cancelEdit(): void
  /** Edit and resend: reverts to just before `message` (and its files, with `files`) and sends `text` in its place. Throws. */
  resend(message: UserMessage, text: string, files: boolean): Promise<void>
  /** The last reply, gone (as a revert hides it) and asked for again with the same prompt. */
  regenerate(reply: AssistantMessage): Promise<void>
  /** After a Stop: asks the model to go on. */
  continueReply(reply: AssistantMessage): Promise<void>
  /** The conversation as shown (before any revert point), newest last. */
  visibleMessages(): readonly Message[]
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
  const [editing, setEditing] = createSignal<string>()
  const busy = () => isRunning(store.state.status[sessionID]) || store.state.sessions[sessionID]?.time.compacting !== undefined
  // The model is copied field by field: a message from the store is a proxy, which postMessage cannot clone.
  // A resent prompt takes its attachments along (their blobs are stored already).
  const send = (text: string, from: { agent: string; model: { providerID: string; modelID: string } }, attached: PromptPartInput[] = []) =>
    api.prompt({
      sessionID,
      parts: [...(text.trim() || attached.length === 0 ? [{ type: 'text' as const, text }] : []), ...attached],
      agent: from.agent,
      model: { providerID: from.model.providerID, modelID: from.model.modelID },
    })
  /** Hides `messageID` and everything after it, then sends `text`: the next prompt removes what was hidden. */
  const replaceFrom = async (messageID: string, files: boolean, text: string, from: Parameters<typeof send>[1]) => {
    const attached = attachedParts(store.partsOf(messageID))
    store.remember(await api.revertSession({ sessionID, messageID, files }))
    await send(text, from, attached)
  }
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
      const title = sessionTitle(result.session.title)
      options.open({
        session: result.session,
        // A fork whose files differ from the project's now gets a project of its own, which the sidebar then shows:
        // say so, or the other sessions seem gone.
        notice: result.newProject
          ? `Branched into “${title}”, in a project of its own, “${result.project.name}”: the files at that point differ from the project's now. Your other sessions are in the project you came from; the Project picker switches back.`
          : `Branched into “${title}”`,
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
    editing,
    startEdit: setEditing,
    cancelEdit: () => setEditing(undefined),
    resend: async (message, text, files) => {
      await replaceFrom(message.id, files, text, message)
      setEditing(undefined)
    },
    regenerate: async (reply) => {
      await store.attempt('regenerate the reply', async () => {
        const prompt = store.current.messages().find((message) => message.id === reply.parentID)
        const text = prompt ? promptText(store.partsOf(prompt.id)) : ''
        if (prompt?.role !== 'user' || (!text && attachedParts(store.partsOf(prompt.id)).length === 0)) throw new NotFoundError('prompt of the reply', reply.parentID)
        await replaceFrom(prompt.id, false, text, prompt)
      })
    },
    continueReply: async (reply) => {
      await store.attempt('continue', () => send(CONTINUE_PROMPT, { agent: reply.agent, model: { providerID: reply.providerID, modelID: reply.modelID } }))
    },
    visibleMessages: () => visibleMessages(store.current.messages(), store.state.sessions[sessionID]?.revert),
  }
}
