import { Show, type JSX } from 'solid-js'
import type { FilePart } from '../../../core/schema'
import { fileLabel, isInlineImage } from './file-label'

export function FilePartView(props: { part: FilePart }): JSX.Element {
  const symbol = () => (props.part.source?.type === 'symbol' ? props.part.source.name : undefined)
  return (
    <span class="part part-file chip" title={props.part.url.startsWith('data:') ? props.part.mime : props.part.url}>
      <Show when={isInlineImage(props.part)}>
        <img class="file-preview" src={props.part.url} alt="" />
      </Show>
      <span class="chip-label mono">{fileLabel(props.part)}</span>
      <Show when={symbol()}>
        <span class="faint mono">#{symbol()}</span>
      </Show>
      <span class="faint">{props.part.mime}</span>
    </span>
  )
}
