import type { JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'

export function AgentPartView(props: { part: PartOf<'agent'> }): JSX.Element {
  return (
    <span class="part part-agent chip" title={`Agent ${props.part.name}`}>
      <span class="chip-label">@{props.part.name}</span>
    </span>
  )
}
