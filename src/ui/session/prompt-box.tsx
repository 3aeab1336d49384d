import type { JSX } from 'solid-js'
import { keysFor } from '../keyboard/shortcuts'

// Providers arrive with the next issue. Until then the box is real (focus, typing, Enter) but nothing is sent, and
// no reply is ever faked.
const CAN_SEND = false

/** The prompt at the bottom of a session. Enter sends, Shift+Enter starts a new line. */
export function PromptBox(props: { id: string }): JSX.Element {
  const noteID = `${props.id}-note`
  const send = () => {
    if (!CAN_SEND) return
    // The provider issue submits the prompt here.
  }
  return (
    <form
      class="prompt"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <label class="visually-hidden" for={props.id}>
        Prompt
      </label>
      <textarea
        id={props.id}
        class="prompt-input"
        rows={3}
        placeholder="Ask tabcode to change, explain or explore the code…"
        aria-keyshortcuts={keysFor('focus-prompt')}
        aria-describedby={noteID}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            send()
          }
        }}
      />
      <div class="prompt-bar">
        <p id={noteID} class="prompt-note">
          Connect a model to send prompts (coming with providers)
        </p>
        <button type="submit" class="button button-primary" disabled={!CAN_SEND}>
          Send
        </button>
      </div>
    </form>
  )
}
