import { For, type JSX } from 'solid-js'
import type { PartOf } from '../../../session/schema'
import { shortHash } from './snapshot-part'

/** The files a step changed. */
export function PatchPartView(props: { part: PartOf<'patch'> }): JSX.Element {
  const count = () => props.part.files.length
  return (
    <div class="part part-patch" role="group" aria-label="Changed files">
      <p class="patch-head">
        Changed {count()} {count() === 1 ? 'file' : 'files'}
        <span class="faint mono" title={`Snapshot before the step: ${props.part.hash}`}>
          {' '}
          · {shortHash(props.part.hash)}
        </span>
      </p>
      <ul class="patch-files mono">
        <For each={props.part.files}>{(file) => <li>{file}</li>}</For>
      </ul>
    </div>
  )
}
