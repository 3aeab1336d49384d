import { Show, type JSX } from 'solid-js'
import type { ReasoningPart } from '../../../core/schema'
import { formatDuration } from '../../kit/format/time'
import { Markdown } from '../../kit/markdown/markdown'

/** The model's thinking: closed once done (it is the answer that matters), open while it is still arriving. */
export function ReasoningPartView(props: { part: ReasoningPart }): JSX.Element {
  const done = () => props.part.time.end !== undefined
  return (
    <details class="part part-reasoning" open={!done()}>
      <summary>
        <span>{done() ? 'Reasoning' : 'Thinking…'}</span>
        <Show when={props.part.time.end}>
          {(end) => <span class="faint"> · {formatDuration(end() - props.part.time.start)}</span>}
        </Show>
      </summary>
      <div class="reasoning-body">
        <Markdown text={props.part.text} />
      </div>
    </details>
  )
}
