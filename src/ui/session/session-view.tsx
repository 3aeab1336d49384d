import { Show, type JSX } from 'solid-js'
import { useSessionStore } from '../store/session-store-context'
import { MessageErrorView } from './message-error-view'
import { MessageList } from './message-list'
import { PromptBox } from './prompt-box'
import { SESSION_HEADING_ID, SessionHeader } from './session-header'
import './session.css'
import './parts/parts.css'

/** The open session: header, conversation, prompt. Mounted per session, so scroll and drafts start fresh. */
export function SessionView(props: { sessionID: string; promptID: string }): JSX.Element {
  const store = useSessionStore()
  const info = () => store.state.sessions[props.sessionID]
  const sessionError = () => store.state.errors[props.sessionID]
  return (
    <section class="session-view" aria-labelledby={SESSION_HEADING_ID}>
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
      <Show when={sessionError()}>
        {(error) => (
          <div class="session-error">
            <MessageErrorView error={error()} />
            <button type="button" class="button button-small button-quiet" onClick={() => store.dismissError(props.sessionID)}>
              Dismiss
            </button>
          </div>
        )}
      </Show>
      <MessageList />
      <PromptBox id={props.promptID} />
    </section>
  )
}
