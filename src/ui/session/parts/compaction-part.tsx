import { createSignal, Show, type JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'

/**
 * Where the conversation was compacted: the model reads the summary that follows instead of the turns above, which
 * stay here, readable. It spans the whole list, like a chapter break, and offers the way back: undone, the model gets
 * the full history again.
 */
export function CompactionPartView(props: { part: PartOf<'compaction'>; onUndo?: (() => Promise<void>) | undefined; busy?: boolean }): JSX.Element {
  const [undoing, setUndoing] = createSignal(false)
  const undo = async () => {
    setUndoing(true)
    try {
      await props.onUndo?.()
    } finally {
      setUndoing(false)
    }
  }
  return (
    <div class="part part-compaction" role="group" aria-label="Conversation compacted" data-undone={props.part.undone ? '' : undefined}>
      <span class="compaction-label">
        <Show when={!props.part.undone} fallback="Compaction undone">
          {props.part.auto ? 'Compacted automatically' : 'Compacted on request'}
          <Show when={props.part.overflow}>
            <span class="faint"> · the context overflowed</span>
          </Show>
        </Show>
      </span>
      <Show when={!props.part.undone && props.onUndo}>
        <button
          type="button"
          class="button button-small button-quiet"
          disabled={undoing() || props.busy}
          title={props.busy ? 'Not while a reply is being written' : 'Send the full history to the model again; the summary stays readable'}
          onClick={() => void undo()}
        >
          Undo compaction
        </button>
      </Show>
    </div>
  )
}
