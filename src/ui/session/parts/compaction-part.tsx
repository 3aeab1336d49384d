import { Show, type JSX } from 'solid-js'
import type { PartOf } from '../../../session/schema'

/**
 * Where the conversation was compacted: everything above is summarised for the model by the summary that follows.
 * It spans the whole list, like a chapter break.
 */
export function CompactionPartView(props: { part: PartOf<'compaction'> }): JSX.Element {
  return (
    <div class="part part-compaction">
      <span class="compaction-label">
        Conversation compacted
        <span class="faint">
          {' · '}
          {props.part.auto ? 'automatic' : 'manual'}
          <Show when={props.part.overflow}> (context overflow)</Show>
        </span>
      </span>
    </div>
  )
}
