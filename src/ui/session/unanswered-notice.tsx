import { createEffect, createMemo, createSignal, onCleanup, Show, type JSX } from 'solid-js'
import { isImported } from '../../core/read-only'
import { errorMessage } from '../format/error'
import { useSessionStore } from '../store/session-store-context'
import { isRunning } from './session-status-text'
import { unansweredPrompt } from './unanswered-prompt'

/** A prompt just sent is unanswered until its runner reports busy, a moment later: the notice waits past that. */
export const UNANSWERED_GRACE_MS = 2_000

/** Says that the newest prompt has no answer and nothing is working on it, and offers to answer it now. */
export function UnansweredNotice(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const [problem, setProblem] = createSignal<string>()
  const [asking, setAsking] = createSignal(false)
  const candidate = createMemo(() => {
    const session = store.state.sessions[props.sessionID]
    return unansweredPrompt({
      messages: store.current.messages(),
      parts: (messageID) => store.state.parts[messageID],
      running: isRunning(store.state.status[props.sessionID]),
      readOnly: !session || isImported(session),
      reverted: session?.revert !== undefined,
    })
  })
  const [shown, setShown] = createSignal<string>()
  createEffect(() => {
    const id = candidate()
    setShown(undefined)
    setProblem(undefined)
    if (!id) return
    const timer = setTimeout(() => setShown(id), UNANSWERED_GRACE_MS)
    onCleanup(() => clearTimeout(timer))
  })
  const answer = async () => {
    if (asking()) return
    setAsking(true)
    setProblem(undefined)
    try {
      await store.api.resume(props.sessionID)
    } catch (error) {
      setProblem(`Couldn't answer it: ${errorMessage(error)}`)
    } finally {
      setAsking(false)
    }
  }
  return (
    <Show when={shown()}>
      <div class="session-notice" role="status">
        <span>Your last prompt has not been answered</span>
        <Show when={problem()}>
          <span class="problem">{problem()}</span>
        </Show>
        <button type="button" class="button button-small" disabled={asking()} onClick={() => void answer()}>
          Answer it now
        </button>
      </div>
    </Show>
  )
}
