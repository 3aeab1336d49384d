import { createSignal, For, Show, type JSX } from 'solid-js'
import type { PartOf } from '../../../core/schema'
import { shortHash } from './snapshot-part'

/** Past this many names the line ends in "and N more", so a step that touched a whole tree stays one line. */
const SHOWN_FILES = 6

/** The files a step changed, as one compact line: "Changed files: a, b". */
export function PatchPartView(props: { part: PartOf<'patch'> }): JSX.Element {
  const [all, setAll] = createSignal(false)
  const shown = () => (all() ? props.part.files : props.part.files.slice(0, SHOWN_FILES))
  const rest = () => props.part.files.length - shown().length
  return (
    // The snapshot's hash is for revert, which finds it by itself; the reader gets it on hover at most.
    <p class="part part-patch" role="group" aria-label="Changed files" title={`Snapshot before the step: ${shortHash(props.part.hash)}`}>
      <span class="patch-head">Changed {props.part.files.length === 1 ? 'file' : 'files'}: </span>
      <For each={shown()}>
        {(file, index) => (
          <>
            <span class="patch-file mono">{file}</span>
            {index() < shown().length - 1 ? ', ' : ''}
          </>
        )}
      </For>
      <Show when={rest() > 0}>
        {' '}
        <button type="button" class="button-link" onClick={() => setAll(true)}>
          and {rest()} more
        </button>
      </Show>
    </p>
  )
}
