import { Show, type JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'
import { LongText } from '../long-text'

const PROMPT_LINES = 8

/** A queued subagent run: what for, which agent, and the prompt it will get. */
export function SubtaskPartView(props: { part: PartOf<'subtask'> }): JSX.Element {
  return (
    <div class="part part-subtask" role="group" aria-label={`Subtask: ${props.part.description}`}>
      <div class="subtask-head">
        <span class="subtask-kind">Subtask</span>
        <span class="subtask-description">{props.part.description}</span>
      </div>
      <p class="subtask-meta">
        <span>agent @{props.part.agent}</span>
        <Show when={props.part.command}>
          <span> · command /{props.part.command}</span>
        </Show>
        <Show when={props.part.model}>{(model) => <span> · {model().modelID}</span>}</Show>
      </p>
      <LongText text={props.part.prompt} maxLines={PROMPT_LINES} class="subtask-prompt" />
    </div>
  )
}
