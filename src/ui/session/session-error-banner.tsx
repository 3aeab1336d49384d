import { createMemo, createSignal, Show, type JSX } from 'solid-js'
import { errorMessage } from '../kit/format/error'
import { useSessionStore } from '../store/session-store-context'
import { bannerError, errorHeading } from './error-heading'
import { describeMessageError } from './message-error'
import { ErrorDetails } from './message-error-view'
import { isRunning } from '../kit/format/session-status-text'

/**
 * The failed turn, said once at the top of the conversation: what happened in words, the provider's own message,
 * and what can be done (retry, or the advice the error calls for). The message in the list keeps its own record.
 */
export function SessionErrorBanner(props: {
  sessionID: string
  onShowSettings?: (() => void) | undefined
  onNewSession?: (() => void) | undefined
}): JSX.Element {
  const store = useSessionStore()
  const [problem, setProblem] = createSignal<string>()
  const [retrying, setRetrying] = createSignal(false)
  const shown = createMemo(() => {
    const messages = store.current.messages()
    return bannerError({
      last: messages[messages.length - 1],
      live: store.state.errors[props.sessionID],
      running: isRunning(store.state.status[props.sessionID]),
      dismissed: store.dismissedError(props.sessionID),
    })
  })
  const dismiss = () => {
    setProblem(undefined)
    store.dismissError(props.sessionID, shown()?.messageID)
  }
  const retry = async () => {
    if (retrying()) return
    setRetrying(true)
    try {
      await store.api.resume(props.sessionID)
      dismiss()
    } catch (error) {
      setProblem(`Couldn't retry: ${errorMessage(error)}`)
    } finally {
      setRetrying(false)
    }
  }
  return (
    <Show when={shown()}>
      {(current) => {
        const heading = () => errorHeading(current().error)
        const text = () => describeMessageError(current().error)
        return (
          <div class="session-error-banner" role="alert">
            <div class="session-error-body">
              <p class="session-error-heading">{heading().heading}</p>
              <p class="session-error-message">{text().message}</p>
              <Show when={heading().advice}>
                <p class="session-error-advice">{heading().advice}</p>
              </Show>
              <ErrorDetails detail={text().detail} />
              <Show when={problem()}>
                <p class="problem session-error-problem">{problem()}</p>
              </Show>
            </div>
            <div class="session-error-actions">
              <Show when={heading().retry}>
                <button type="button" class="button button-small" disabled={retrying()} onClick={() => void retry()}>
                  Retry
                </button>
              </Show>
              <Show when={current().error.name === 'ProviderAuthError' && props.onShowSettings}>
                <button type="button" class="button button-small" onClick={() => props.onShowSettings?.()}>
                  Open Settings
                </button>
              </Show>
              <Show when={current().error.name === 'ContextOverflowError' && props.onNewSession}>
                <button type="button" class="button button-small" onClick={() => props.onNewSession?.()}>
                  Start a new session
                </button>
              </Show>
              <button type="button" class="button button-small button-quiet" onClick={dismiss}>
                Dismiss
              </button>
            </div>
          </div>
        )
      }}
    </Show>
  )
}
