import { createSignal, onCleanup } from 'solid-js'
import { admitAttachments, attachmentMime, attachmentMismatch, toDataURL } from '../../core/attachments'
import { imageType } from '../../core/file-type'
import type { PromptPartInput } from '../../core/schema'
import { errorMessage } from '../kit/format/error'

/**
 * Whether a paste attaches its files rather than pasting text. An image copied from a page or a file copied in the
 * file manager attaches; a rich copy from an office app (text and HTML, with a picture of the selection as a file)
 * pastes its text, as the user meant.
 */
export function pasteAttaches(clipboard: { types: readonly string[]; files: number; text: string }): boolean {
  if (clipboard.files === 0) return false
  return !(clipboard.types.includes('text/html') && clipboard.text.trim().length > 0)
}

/** A file waiting in the prompt: read already, so a file that cannot be read says so when attached, not at send. */
export interface PendingAttachment {
  id: number
  name: string
  mime: string
  size: number
  url: string
  /** An object URL for a raster image's thumbnail (`imageType`); revoked when the chip goes. */
  preview?: string
}

/**
 * The files attached to the prompt before it is sent: pasted, dropped or picked. Limits are checked as files come
 * in; the ones that fit are kept and the others named in `report`, so the prompt text is never touched.
 */
export function createAttachments(report: (problem: string) => void) {
  const [list, setList] = createSignal<PendingAttachment[]>([])
  let next = 0
  let reading = 0

  const release = (items: readonly PendingAttachment[]) => {
    for (const item of items) if (item.preview) URL.revokeObjectURL(item.preview)
  }
  onCleanup(() => release(list()))

  async function add(files: readonly File[]): Promise<void> {
    if (files.length === 0) return
    const { accepted, problems } = admitAttachments(list().length + reading, files)
    reading += accepted.length
    try {
      for (const file of accepted) {
        try {
          const bytes = new Uint8Array(await file.arrayBuffer())
          const mime = attachmentMime(file.name, file.type)
          const name = file.name || 'pasted file'
          // A file whose bytes are not what its type says (an archive named `.pdf`) would reach the model as a lie.
          const mismatch = attachmentMismatch(name, mime, bytes, 'it was not attached')
          if (mismatch) {
            problems.push(mismatch)
            continue
          }
          const item: PendingAttachment = { id: next++, name, mime, size: bytes.length, url: toDataURL(mime, bytes) }
          // The thumbnail's URL has the type the bytes prove, never the file's own: an SVG or HTML file at a `blob:`
          // URL of this origin would be a page with the app's storage in reach once opened in a tab.
          const image = imageType(mime, bytes)
          if (image) item.preview = URL.createObjectURL(new Blob([bytes], { type: image }))
          setList((items) => [...items, item])
        } catch (error) {
          problems.push(`${file.name || 'The file'} could not be read: ${errorMessage(error)}`)
        } finally {
          reading--
        }
      }
    } finally {
      if (problems.length) report(problems.join(' '))
    }
  }

  function remove(id: number): void {
    const gone = list().filter((item) => item.id === id)
    release(gone)
    setList((items) => items.filter((item) => item.id !== id))
  }

  /** Takes the sent files out of the prompt (files attached while it was being stored stay). */
  function sent(items: readonly PendingAttachment[]): void {
    const ids = new Set(items.map((item) => item.id))
    release(items)
    setList((current) => current.filter((item) => !ids.has(item.id)))
  }

  const parts = (items: readonly PendingAttachment[]): PromptPartInput[] =>
    items.map((item) => ({ type: 'file', mime: item.mime, filename: item.name, url: item.url }))

  return { list, add, remove, sent, parts }
}
