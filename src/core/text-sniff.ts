const BINARY_SNIFF_BYTES = 8000

/** The text of some bytes, or null when they are not text: git's heuristic (a NUL byte early on), or invalid UTF-8. */
export function textOf(data: Uint8Array): string | null {
  if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data)
  } catch {
    return null
  }
}
