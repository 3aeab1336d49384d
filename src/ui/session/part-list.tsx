import { createMemo, For, Show, type Accessor, type JSX } from 'solid-js'
import type { Part, PartType } from '../../core/schema'
import { partsBefore } from '../history/revert-cut'
import { createKeyedList } from './create-keyed-list'
import { PartView } from './parts/part-view'

/**
 * A message's parts in id order, keyed by id so a part's card survives its updates. `before` hides the parts from
 * that one on (a revert at a part).
 */
export function PartList(props: { parts: Accessor<Part[]>; role: 'user' | 'assistant'; exclude?: PartType; before?: string | undefined }): JSX.Element {
  const shown = createMemo(() => {
    const parts = partsBefore(props.parts(), props.before)
    return props.exclude ? parts.filter((part) => part.type !== props.exclude) : parts
  })
  const keyed = createKeyedList(shown)
  return (
    <div class="parts">
      <For each={keyed.ids()}>
        {(partID) => <Show when={keyed.get(partID)}>{(part) => <PartView part={part()} role={props.role} />}</Show>}
      </For>
    </div>
  )
}
