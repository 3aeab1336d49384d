const encoder = new TextEncoder()
// ignoreBOM keeps a leading U+FEFF in the text, so an edit that writes the text back keeps the file's BOM.
const bomKeepingDecoder = new TextDecoder('utf-8', { ignoreBOM: true })
const decoder = new TextDecoder('utf-8')

export function encodeText(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text)
}

/** The file's text exactly, a BOM included. */
export function decodeText(data: Uint8Array): string {
  return bomKeepingDecoder.decode(data)
}

/** The text without a BOM: for searching, where `^` must match at the start of the first line. */
export function decodeSearchText(data: Uint8Array): string {
  return decoder.decode(data)
}

/** How grep tools decide: a NUL byte in the first 8 KB means binary. */
export function isBinary(data: Uint8Array): boolean {
  const end = Math.min(data.length, 8192)
  for (let index = 0; index < end; index++) if (data[index] === 0) return true
  return false
}
