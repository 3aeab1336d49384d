/**
 * `JSON.stringify(value, null, indent)`'s exact text, written in pieces to `write`: objects and long arrays are
 * walked, so no string ever holds more than one small subtree (an export of 100,000 messages is ~100 MB of text,
 * which as one string would sit in the worker's heap, be copied to the page, and copied again into the file).
 */
export function writeJson(value: unknown, write: (piece: string) => void, indent = 2): void {
  const step = ' '.repeat(indent)
  // Without indentation JSON.stringify puts no line breaks and no space after a colon.
  const nl = indent ? '\n' : ''
  const colon = indent ? ': ' : ':'
  const visit = (node: unknown, pad: string, inArray: boolean): void => {
    if (node !== null && typeof node === 'object' && typeof (node as { toJSON?: unknown }).toJSON === 'function') {
      node = (node as { toJSON(): unknown }).toJSON()
    }
    const inner = pad + step
    if (Array.isArray(node) && node.length > SMALL_ARRAY) {
      write('[')
      node.forEach((item, index) => {
        write(`${index ? ',' : ''}${nl}${inner}`)
        visit(item, inner, true)
      })
      write(`${nl}${pad}]`)
      return
    }
    // Only objects on the way to a long array are walked; any other subtree (a message with its parts) is one native
    // JSON.stringify, several times faster than walking it here.
    if (node !== null && typeof node === 'object' && !Array.isArray(node) && holdsLongArray(node, WALK_DEPTH)) {
      const entries = Object.entries(node).filter(([, item]) => kept(item))
      if (entries.length === 0) return write('{}')
      write('{')
      entries.forEach(([key, item], index) => {
        write(`${index ? ',' : ''}${nl}${inner}${JSON.stringify(key)}${colon}`)
        visit(item, inner, false)
      })
      write(`${nl}${pad}}`)
      return
    }
    // A leaf or a short array: JSON.stringify itself, indented to where it sits (JSON strings never hold a raw line
    // break, so every one in the text is layout).
    const text = kept(node) ? JSON.stringify(node, null, indent) : inArray ? 'null' : undefined
    if (text !== undefined) write(pad && text.includes('\n') ? text.replace(/\n/g, `\n${pad}`) : text)
  }
  visit(value, '', false)
}

const SMALL_ARRAY = 16
const WALK_DEPTH = 3

function holdsLongArray(node: unknown, depth: number): boolean {
  if (Array.isArray(node)) return node.length > SMALL_ARRAY
  if (node === null || typeof node !== 'object' || depth === 0) return false
  for (const key in node) if (holdsLongArray((node as Record<string, unknown>)[key], depth - 1)) return true
  return false
}
const kept = (value: unknown) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol'

/** The JSON text of `value` as a Blob, built ~1 MB at a time; the strings go as soon as each piece is in the Blob. */
export function jsonBlob(value: unknown, options: { indent?: number; type?: string } = {}): Blob {
  const blobs: Blob[] = []
  let buffer: string[] = []
  let size = 0
  writeJson(
    value,
    (piece) => {
      buffer.push(piece)
      size += piece.length
      if (size < CHUNK_CHARS) return
      blobs.push(new Blob(buffer))
      buffer = []
      size = 0
    },
    options.indent ?? 2,
  )
  if (buffer.length) blobs.push(new Blob(buffer))
  return new Blob(blobs, { type: options.type ?? 'application/json' })
}

const CHUNK_CHARS = 1 << 20
