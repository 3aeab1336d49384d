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

/** Only images we already hold (data: URLs) are previewed; nothing is fetched from elsewhere just by showing a chip. */
export function isInlineImage(part: FilePart): boolean {
  return part.mime.startsWith('image/') && part.url.startsWith('data:image/')
}
