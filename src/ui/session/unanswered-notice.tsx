import { createEffect, createMemo, createSignal, onCleanup, Show, type JSX } from 'solid-js'
import { errorMessage } from '../kit/format/error'
import { useSessionStore } from '../store/session-store-context'
import { isRunning } from '../kit/format/session-status-text'
import { strandedPrompt } from './stranded-prompt'

/**
 * A prompt just stored has no reply and an idle status until its runner reports busy, a moment later (its loop first
 * takes the session's lock and reads the history), and in another tab the prompt and the status arrive as separate
 * events. Nothing this tab knows tells that moment from a stranded prompt, so the notice waits past it. A click made
 * at the wrong moment still runs nothing twice: the worker answers the prompt only if it has no reply once the
 * session's lock is held (`answerPrompt`).
 */
export const UNANSWERED_GRACE_MS = 2_000

/** Says that the newest prompt has no answer and nothing is working on it, and offers to answer it now. */
export function UnansweredNotice(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const [problem, setProblem] = createSignal<string>()
  const [asking, setAsking] = createSignal(false)
  const candidate = createMemo(() =>
    strandedPrompt({
      session: store.state.sessions[props.sessionID],
      messages: store.current.messages(),
      parts: (messageID) => store.state.parts[messageID],
      running: isRunning(store.state.status[props.sessionID]),
    }),
  )
  const [shown, setShown] = createSignal<string>()
  createEffect(() => {
    const id = candidate()
    setShown(undefined)
    setProblem(undefined)
    if (!id) return
    const timer = setTimeout(() => setShown(id), UNANSWERED_GRACE_MS)
    onCleanup(() => clearTimeout(timer))
  })
  const answer = async (messageID: string) => {
    if (asking()) return
    setAsking(true)
    setProblem(undefined)
    try {
      await store.api.answerPrompt({ sessionID: props.sessionID, messageID })
    } catch (error) {
      setProblem(`Couldn't answer it: ${errorMessage(error)}`)
    } finally {
      setAsking(false)
    }
  }
  return (
    <Show when={shown()}>
      {(messageID) => (
        <div class="session-notice" role="status">
          <span>Your last prompt has not been answered</span>
          <Show when={problem()}>
            <span class="problem">{problem()}</span>
          </Show>
          <button type="button" class="button button-small" disabled={asking()} onClick={() => void answer(messageID())}>
            Answer it now
          </button>
        </div>
      )}
    </Show>
  )
}
