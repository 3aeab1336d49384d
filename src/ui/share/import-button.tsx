import { createUniqueId, type JSX } from 'solid-js'
import './share.css'

/**
 * "Import…": a button that opens the file picker for a tabcode session or backup file, or an opencode export. The
 * input itself is hidden but labelled, so assistive technology (and tests) can reach it by name.
 */
export function ImportButton(props: { onFile: (file: File) => void; busy?: boolean; class?: string }): JSX.Element {
  const inputID = createUniqueId()
  let input!: HTMLInputElement
  return (
    <span class={`import-button ${props.class ?? ''}`}>
      <button type="button" class="button button-small" disabled={props.busy} onClick={() => input.click()} title="Import a session or backup file (.json)">
        Import…
      </button>
      <input
        ref={input}
        id={inputID}
        class="visually-hidden"
        type="file"
        accept=".json,application/json"
        aria-label="Import file"
        tabIndex={-1}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          // Cleared so picking the same file again fires change again.
          event.currentTarget.value = ''
          if (file) props.onFile(file)
        }}
      />
    </span>
  )
}

/** The first dropped `.json` file, if the drop holds one (anything else is left to whoever else handles drops). */
export function droppedJsonFile(transfer: DataTransfer | null): File | undefined {
  if (!transfer) return undefined
  return [...transfer.files].find((file) => file.name.toLowerCase().endsWith('.json') || file.type === 'application/json')
}
