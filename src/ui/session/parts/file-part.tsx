import { createResource, onCleanup, Show, type JSX } from 'solid-js'
import { attachmentHash } from '../../../core/attachments'
import { imageType } from '../../../core/file-type'
import type { FilePart } from '../../../core/schema'
import { useSessionStore } from '../../store/session-store-context'
import { fileLabel, inlineImage } from './file-label'

export function FilePartView(props: { part: FilePart }): JSX.Element {
  const symbol = () => (props.part.source?.type === 'symbol' ? props.part.source.name : undefined)
  const hash = () => attachmentHash(props.part.url)
  const stored = () => hash() !== undefined || props.part.url.startsWith('data:')
  return (
    <span class="part part-file chip" title={stored() ? props.part.mime : props.part.url}>
      <Show when={inlineImage(props.part)}>{(src) => <img class="file-preview" src={src()} alt="" />}</Show>
      <Show when={hash() && props.part.mime.startsWith('image/') ? hash() : undefined}>
        {(blob) => <AttachmentPreview hash={blob()} mime={props.part.mime} label={fileLabel(props.part)} />}
      </Show>
      <span class="chip-label mono">{fileLabel(props.part)}</span>
      <Show when={symbol()}>
        <span class="faint mono">#{symbol()}</span>
      </Show>
      <span class="faint">{props.part.mime}</span>
    </span>
  )
}

/**
 * An attached image's thumbnail, read from its blob; nothing when the blob is gone or its bytes are no raster image
 * (an SVG, a "PNG" that is a page): the chip still names it. The URL carries the type the bytes prove, never the
 * part's own: a shared session's file opened from its thumbnail must not be a page at the app's origin.
 */
function AttachmentPreview(props: { hash: string; mime: string; label: string }): JSX.Element {
  const store = useSessionStore()
  let url: string | undefined
  const [preview] = createResource(
    () => props.hash,
    async (hash) => {
      const data = await store.api.readAttachment(hash).catch(() => null)
      const type = data ? imageType(props.mime, data) : undefined
      if (!data || !type) return undefined
      if (url) URL.revokeObjectURL(url)
      url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type }))
      return url
    },
  )
  onCleanup(() => url && URL.revokeObjectURL(url))
  return (
    <Show when={preview()}>
      {(src) => <img class="file-preview" src={src()} alt={`Preview of ${props.label}`} />}
    </Show>
  )
}
