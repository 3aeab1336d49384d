import { Show, type JSX } from 'solid-js'
import type { Progress } from '../../../core/progress'
import { progressCount, progressValue } from '../format/progress'
import './progress-meter.css'

/**
 * A long operation's bar and count, beside the words that name the work ("Importing…"): a `<progress>` named by
 * `label`, with no value (indeterminate) until the size is known, and the count as text for everyone to read. The
 * worker reports at most ten times a second (core/progress-throttle.ts), so a live region around it stays calm.
 */
export function ProgressMeter(props: { label: string; progress: Progress | undefined }): JSX.Element {
  const bar = () => progressValue(props.progress)
  return (
    <span class="progress-meter">
      <Show when={bar()} fallback={<progress aria-label={props.label} />}>
        {(known) => <progress aria-label={props.label} value={known().value} max={known().max} />}
      </Show>
      <Show when={progressCount(props.progress)}>{(count) => <span class="progress-count">{count()}</span>}</Show>
    </span>
  )
}
