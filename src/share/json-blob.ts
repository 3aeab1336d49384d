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
    // A leaf or a whole subtree: JSON.stringify itself, indented to where it sits by wrapping it in as many arrays
    // as it is deep and cutting the wrappers off again (a replace of every line break cost twice the stringify).
    if (!kept(node)) {
      if (inArray) write('null')
      return
    }
    if (!pad || node === null || typeof node !== 'object') return write(JSON.stringify(node, null, indent))
    const depth = pad.length / indent
    const { prefix, suffix } = wrapperOf(depth)
    const text = JSON.stringify(nested(node, depth), null, indent)
    write(text.slice(prefix, text.length - suffix))
  }
  const wrappers = new Map<number, { prefix: number; suffix: number }>()
  const wrapperOf = (depth: number) => {
    let known = wrappers.get(depth)
    if (!known) {
      const probe = JSON.stringify(nested(0, depth), null, indent)
      const at = probe.indexOf('0')
      wrappers.set(depth, (known = { prefix: at, suffix: probe.length - at - 1 }))
    }
    return known
  }
  visit(value, '', false)
}

const SMALL_ARRAY = 16

function nested(node: unknown, depth: number): unknown {
  let wrapped = node
  for (let level = 0; level < depth; level++) wrapped = [wrapped]
  return wrapped
}
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
  // One string grown by concatenation (V8 joins them lazily), cut into the Blob at each megabyte.
  let chunk = ''
  writeJson(
    value,
    (piece) => {
      chunk += piece
      if (chunk.length < CHUNK_CHARS) return
      blobs.push(new Blob([chunk]))
      chunk = ''
    },
    options.indent ?? 2,
  )
  if (chunk) blobs.push(new Blob([chunk]))
  return new Blob(blobs, { type: options.type ?? 'application/json' })
}

const CHUNK_CHARS = 1 << 20
