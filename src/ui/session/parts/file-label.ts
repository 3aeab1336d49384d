import { dataURLHead } from '../../../core/attachments'
import { imageType } from '../../../core/file-type'
import type { FilePart } from '../../../core/schema'

/** The name a person knows the file by: its own, else where it came from, else the last piece of its URL. */
export function fileLabel(part: FilePart): string {
  if (part.filename) return part.filename
  const source = part.source
  if (source?.type === 'file' || source?.type === 'symbol') return source.path
  if (source?.type === 'resource') return source.uri
  if (part.url.startsWith('data:')) return 'attachment'
  const tail = part.url.split(/[?#]/)[0]!.split('/').filter(Boolean).pop()
  return tail ? decodeURIComponentSafe(tail) : part.url
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The `src` of a file part's thumbnail when it carries a raster image in a data URL, with the type its bytes prove;
 * undefined for anything else. Only images we already hold are previewed (nothing is fetched from elsewhere just by
 * showing a chip), and an SVG or a "PNG" that is something else shows as its chip alone.
 */
export function inlineImage(part: FilePart): string | undefined {
  if (!part.url.startsWith('data:')) return undefined
  const head = dataURLHead(part.url)
  const type = head && imageType(part.mime, head)
  return type ? `data:${type};base64,${part.url.slice(part.url.indexOf(',') + 1)}` : undefined
}
