import { Show, type JSX } from 'solid-js'
import { PaperclipIcon } from '../kit/icons/icons'
import { keysFor } from '../kit/keyboard/shortcuts'

/**
 * The prompt's buttons: attach, and Send; while a turn runs also Stop (it says at once that it was heard) and Queue.
 * Send submits the prompt's form.
 */
export function PromptButtons(props: {
  readOnly: boolean
  running: boolean
  stopping: boolean
  /** Whether there is text or a file to send. */
  canSend: boolean
  onAttach: (files: File[]) => void
  onStop: () => void
  onQueue: () => void
}): JSX.Element {
  let picker: HTMLInputElement | undefined
  return (
    <div class="prompt-actions">
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])]
          // Cleared so that picking the same file again (after removing it) fires a change.
          event.currentTarget.value = ''
          props.onAttach(files)
        }}
      />
      {/* An icon, so the bar keeps to one line beside the model and agent pickers at laptop widths. */}
      <button
        type="button"
        class="icon-button prompt-attach"
        aria-label="Attach files"
        title="Attach images or files (or paste or drop them)"
        disabled={props.readOnly}
        onClick={() => picker?.click()}
      >
        <PaperclipIcon />
      </button>
      <Show when={props.running}>
        <button
          type="button"
          class="button button-danger"
          aria-keyshortcuts={keysFor('stop')}
          title="Stop this turn (Escape)"
          aria-disabled={props.stopping ? 'true' : undefined}
          onClick={() => {
            if (!props.stopping) props.onStop()
          }}
        >
          {props.stopping ? 'Stopping…' : 'Stop'}
        </button>
        <button
          type="button"
          class="button"
          aria-keyshortcuts="Alt+Enter"
          title="Run after this turn ends (Alt+Enter)"
          disabled={!props.canSend}
          onClick={() => props.onQueue()}
        >
          Queue
        </button>
      </Show>
      <button
        type="submit"
        class="button button-primary"
        aria-keyshortcuts="Enter"
        title={props.running ? 'Add to this turn: answered at its next step (Enter)' : 'Send (Enter)'}
        disabled={!props.canSend || props.readOnly}
      >
        Send
      </button>
    </div>
  )
}
