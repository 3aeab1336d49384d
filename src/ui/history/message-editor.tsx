import { createSignal, createUniqueId, onMount, Show, type JSX } from 'solid-js'
import type { UserMessage } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { useHistoryActions } from './history-context'
import './history.css'

/**
 * Edit and resend, in place of the prompt it edits: Enter (or Send) reverts the session to just before this prompt
 * and sends the edited text as a new one; Shift+Enter is a new line; Escape (or Cancel) leaves everything as it was.
 */
export function MessageEditor(props: { message: UserMessage; text: string }): JSX.Element {
  const history = useHistoryActions()
  const [text, setText] = createSignal(props.text)
  const [files, setFiles] = createSignal(false)
  const [sending, setSending] = createSignal(false)
  const [failure, setFailure] = createSignal<string>()
  const filesID = createUniqueId()
  let input!: HTMLTextAreaElement
  onMount(() => {
    input.focus()
    input.setSelectionRange(input.value.length, input.value.length)
  })
  const blocked = () => sending() || !text().trim() || history.lockedReason() !== undefined
  const send = async () => {
    if (blocked()) return
    setSending(true)
    setFailure(undefined)
    try {
      await history.resend(props.message, text(), files())
    } catch (error) {
      setFailure(`Couldn't resend: ${errorMessage(error)}`)
      setSending(false)
    }
  }
  return (
    <form
      class="message-editor"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <textarea
        ref={input}
        class="message-editor-input"
        aria-label="Edit prompt"
        rows={3}
        value={text()}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            history.cancelEdit()
          } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            void send()
          }
        }}
      />
      <Show when={history.lockedReason()}>{(reason) => <p class="quiet">{reason()}</p>}</Show>
      <Show when={failure()}>
        <p class="dialog-failure" role="alert">
          {failure()}
        </p>
      </Show>
      <div class="message-editor-actions">
        <input id={filesID} type="checkbox" checked={files()} onChange={(event) => setFiles(event.currentTarget.checked)} />
        <label for={filesID}>Revert files too</label>
        <button type="button" class="button button-small" onClick={() => history.cancelEdit()}>
          Cancel
        </button>
        <button type="submit" class="button button-small button-primary" disabled={blocked()}>
          {sending() ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  )
}
