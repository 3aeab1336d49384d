import { createSignal, For, Index, onMount, Show, type JSX } from 'solid-js'
import type { InboxEntry, PromptPartInput } from '../../core/schema'
import { errorMessage } from '../kit/format/error'
import { useSessionStore } from '../store/session-store-context'
import { canSend } from './prompt-keys'

/** A queued prompt's words, as the chip shows them (a queued file shows by its name). */
export function queuedText(entry: InboxEntry): string {
  return entry.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
}

const files = (entry: InboxEntry): PromptPartInput[] => entry.parts.filter((part) => part.type === 'file')

/**
 * The prompts queued behind the running turn, next to run first, as every tab sees them (the list follows
 * `inbox.updated` events). Edit changes a prompt where it stands, so it keeps its place; Remove takes it off.
 */
export function QueuedPrompts(props: { sessionID: string }): JSX.Element {
  const store = useSessionStore()
  const entries = () => store.state.queued[props.sessionID] ?? []
  const [editing, setEditing] = createSignal<string>()
  const [problem, setProblem] = createSignal<string>()

  async function save(entry: InboxEntry, text: string): Promise<void> {
    setEditing(undefined)
    if (text === queuedText(entry)) return
    try {
      await store.api.editQueuedPrompt(entry.id, [{ type: 'text', text }, ...files(entry)])
    } catch (error) {
      // The usual reason: the turn ended meanwhile and the prompt is already running as it was.
      setProblem(`Couldn't change the queued prompt: ${errorMessage(error)}`)
    }
  }

  async function remove(entry: InboxEntry): Promise<void> {
    try {
      await store.api.removeQueuedPrompt(entry.id)
    } catch (error) {
      setProblem(`Couldn't remove the queued prompt: ${errorMessage(error)}`)
    }
  }

  return (
    <Show when={entries().length > 0 || problem()}>
      <div class="queued">
        <ol class="queued-list" aria-label="Queued prompts">
          <Index each={entries()}>
            {(entry, index) => (
              <li class="queued-chip" aria-label={`Queued prompt ${index + 1}: ${queuedText(entry())}`}>
                <Show
                  when={editing() === entry().id}
                  fallback={
                    <>
                      <span class="queued-text" title={queuedText(entry())}>
                        {queuedText(entry())}
                        <For each={files(entry())}>{(file) => <span class="queued-file"> · {file.type === 'file' ? (file.filename ?? 'file') : ''}</span>}</For>
                      </span>
                      <button type="button" class="button-link" aria-label="Edit queued prompt" onClick={() => setEditing(entry().id)}>
                        Edit
                      </button>
                      <button type="button" class="button-link" aria-label="Remove queued prompt" onClick={() => void remove(entry())}>
                        Remove
                      </button>
                    </>
                  }
                >
                  <QueuedEditor
                    label={`Queued prompt ${index + 1}`}
                    initial={queuedText(entry())}
                    onSave={(text) => void save(entry(), text)}
                    onCancel={() => setEditing(undefined)}
                  />
                </Show>
              </li>
            )}
          </Index>
        </ol>
        <Show when={problem()}>
          <p class="queued-problem problem" role="alert">
            <span>{problem()}</span>
            <button type="button" class="button-link" onClick={() => setProblem(undefined)}>
              Dismiss
            </button>
          </p>
        </Show>
      </div>
    </Show>
  )
}

/** Edits one queued prompt in place: Enter or Save keeps the change, Escape or Cancel drops it (and never stops the turn). */
function QueuedEditor(props: { label: string; initial: string; onSave: (text: string) => void; onCancel: () => void }): JSX.Element {
  let field!: HTMLTextAreaElement
  const [text, setText] = createSignal(props.initial)
  onMount(() => field.focus())
  const save = () => {
    if (canSend(text())) props.onSave(text())
  }
  return (
    <div class="queued-editor">
      <textarea
        ref={field}
        class="text-input queued-input"
        rows={2}
        aria-label={props.label}
        value={text()}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            save()
          } else if (event.key === 'Escape') {
            event.preventDefault()
            props.onCancel()
          }
        }}
      />
      <button type="button" class="button button-small button-primary" disabled={!canSend(text())} onClick={save}>
        Save
      </button>
      <button type="button" class="button button-small" onClick={() => props.onCancel()}>
        Cancel
      </button>
    </div>
  )
}
