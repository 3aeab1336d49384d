import type { JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'

export const shortHash = (hash: string) => hash.slice(0, 8)

/** Legacy marker of a workspace snapshot: tiny, for the curious. */
export function SnapshotPartView(props: { part: PartOf<'snapshot'> }): JSX.Element {
  return (
    <p class="part part-snapshot faint" title={props.part.snapshot}>
      snapshot <span class="mono">{shortHash(props.part.snapshot)}</span>
    </p>
  )
}
