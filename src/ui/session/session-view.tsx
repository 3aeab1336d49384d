import { Show, type JSX } from 'solid-js'
import { sessionTitle } from '../kit/format/time'
import { log } from '../../core/log'
import { errorMessage } from '../kit/format/error'
import { createHistoryActions, type OpenTarget } from '../history/create-history-actions'
import { HistoryActionsContext } from '../history/history-context'
import { hiddenCount } from '../history/revert-cut'
import { RevertDialog } from '../history/revert-dialog'
import { RevertedNotice } from '../history/reverted-notice'
import { useSessionStore } from '../store/session-store-context'
import type { VirtualList } from './create-virtual-list'
import { MessageList } from './message-list'
import { PromptBox } from './prompt-box'
import { escapeStops } from './prompt-keys'
import { SessionErrorBanner } from './session-error-banner'
import { SESSION_HEADING_ID, SessionHeader } from './session-header'
import { isRunning } from '../kit/format/session-status-text'
import { TodoPanel } from './todo-panel'
import { UnansweredNotice } from './unanswered-notice'
import { AskDialog } from '../permission/ask-dialog'
import { isImported } from '../../core/read-only'
import { ImportedBanner, READ_ONLY_REASON } from '../share/imported-banner'
import './session.css'
import './parts/parts.css'

/** The open session: header, conversation, todos, prompt. Mounted per session, so scroll starts fresh. */
export function SessionView(props: {
  sessionID: string
  promptID: string
  onShowSettings?: (() => void) | undefined
  onNewSession?: (() => void) | undefined
  /** Opens another session (a fork, an origin), switching project when it lives in another one. */
  onOpen?: ((target: OpenTarget) => void) | undefined
}): JSX.Element {
  const store = useSessionStore()
  const info = () => store.state.sessions[props.sessionID]
  const history = createHistoryActions({ store, sessionID: props.sessionID, open: (target) => props.onOpen?.(target) })
  let list: Pick<VirtualList, 'scrollToBottom'> | undefined
  // An imported session is a record: it can be read and shared, and continued only in a fork of the user's own.
  const imported = () => {
    const session = info()
    return session && isImported(session) ? session : undefined
  }
  const continueInFork = async () => {
    const result = await store.attempt('continue in a fork', () => store.api.forkSession({ sessionID: props.sessionID }))
    if (!result) return
    props.onOpen?.({ session: result.session, notice: `Continued in a fork: “${sessionTitle(result.session.title)}” is yours to prompt.` })
  }
  return (
    <HistoryActionsContext.Provider value={history}>
      <section
        class="session-view"
        aria-labelledby={SESSION_HEADING_ID}
        onKeyDown={(event) => {
          const stop = escapeStops({
            key: event.key,
            isComposing: event.isComposing,
            defaultPrevented: event.defaultPrevented,
            dialogOpen: document.querySelector('dialog[open]') !== null,
            running: isRunning(store.state.status[props.sessionID]),
          })
          if (!stop) return
          event.preventDefault()
          store.api.cancel(props.sessionID).catch((error: unknown) => log.warn(`tabcode: stop failed: ${errorMessage(error)}`))
        }}
      >
        <Show
          when={info()}
          fallback={
            <p class="list-note quiet" classList={{ problem: !!store.current.error() }}>
              {store.current.error() ?? 'Opening session…'}
            </p>
          }
        >
          {(session) => <SessionHeader info={session()} />}
        </Show>
        <Show when={imported()}>{(session) => <ImportedBanner metadata={session().metadata} onFork={continueInFork} />}</Show>
        <SessionErrorBanner sessionID={props.sessionID} onShowSettings={props.onShowSettings} onNewSession={props.onNewSession} />
        <Show when={store.current.repaired()}>
          <div class="session-notice" role="status">
            <span>The last reply was interrupted when its tab closed</span>
            <button type="button" class="button button-small button-quiet" onClick={() => store.current.dismissRepaired()}>
              Dismiss
            </button>
          </div>
        </Show>
        <Show when={store.current.fetching()}>
          <p class="session-notice" role="status">
            Fetching messages…
          </p>
        </Show>
        <MessageList controls={(controls) => (list = controls)} />
        <UnansweredNotice sessionID={props.sessionID} />
        <Show when={info()?.revert}>
          {(revert) => (
            <RevertedNotice
              revert={revert()}
              hidden={hiddenCount(store.current.messages(), revert())}
              busy={history.busy()}
              onUnrevert={history.unrevert}
            />
          )}
        </Show>
        <Show when={history.pendingRevert()}>
          {(request) => (
            <RevertDialog
              files={request().files}
              preview={() => history.previewRevert(request())}
              onRevert={() => history.confirmRevert(request())}
              onClose={history.cancelRevert}
            />
          )}
        </Show>
        <TodoPanel sessionID={props.sessionID} />
        <AskDialog sessionID={props.sessionID} />
        <PromptBox
          id={props.promptID}
          sessionID={props.sessionID}
          onShowSettings={props.onShowSettings}
          onSent={() => list?.scrollToBottom()}
          readOnly={imported() ? READ_ONLY_REASON : undefined}
          onNewSession={props.onNewSession}
        />
      </section>
    </HistoryActionsContext.Provider>
  )
}
