import type { JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'
import { UsageLine } from '../usage-line'

/** What one step cost, quietly: why it stopped, tokens, money. */
export function StepFinishPartView(props: { part: PartOf<'step-finish'> }): JSX.Element {
  return (
    <p class="part part-step-finish">
      <span>step finished: {props.part.reason}</span>
      <span aria-hidden="true"> · </span>
      <UsageLine tokens={props.part.tokens} cost={props.part.cost} />
    </p>
  )
}
