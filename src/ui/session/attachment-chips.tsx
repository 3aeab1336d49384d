import { For, Show, type JSX } from 'solid-js'
import { formatBytes } from '../../core/attachments'
import type { PendingAttachment } from './create-attachments'

/** The files waiting in the prompt, each a chip with its name and a button that takes it out again. */
export function AttachmentChips(props: { items: readonly PendingAttachment[]; disabled?: boolean; onRemove: (id: number) => void }): JSX.Element {
  return (
    <Show when={props.items.length > 0}>
      <ul class="prompt-attachments" aria-label="Attachments">
        <For each={props.items}>
          {(item) => (
            <li class="chip prompt-attachment" aria-label={item.name} title={`${item.mime} · ${formatBytes(item.size)}`}>
              <Show when={item.preview}>{(preview) => <img class="file-preview" src={preview()} alt="" />}</Show>
              <span class="chip-label mono">{item.name}</span>
              <span class="faint">{formatBytes(item.size)}</span>
              <button type="button" class="button-link prompt-attachment-remove" aria-label={`Remove ${item.name}`} disabled={props.disabled} onClick={() => props.onRemove(item.id)}>
                ×
              </button>
            </li>
          )}
        </For>
      </ul>
    </Show>
  )
}
