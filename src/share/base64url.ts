import { ImportCorruptError } from './errors'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const VALUES = new Int16Array(128).fill(-1)
for (let index = 0; index < ALPHABET.length; index++) VALUES[ALPHABET.charCodeAt(index)] = index

/** base64url without padding: the characters a URL fragment carries unescaped. */
export function encodeBase64Url(bytes: Uint8Array): string {
  const chunks: string[] = []
  let chunk = ''
  let index = 0
  for (; index + 2 < bytes.length; index += 3) {
    const value = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!
    chunk += ALPHABET[value >> 18]! + ALPHABET[(value >> 12) & 63]! + ALPHABET[(value >> 6) & 63]! + ALPHABET[value & 63]!
    // Joining pieces keeps long links from building one ever-growing string.
    if (chunk.length >= 8192) {
      chunks.push(chunk)
      chunk = ''
    }
  }
  const rest = bytes.length - index
  if (rest === 1) {
    const value = bytes[index]! << 16
    chunk += ALPHABET[value >> 18]! + ALPHABET[(value >> 12) & 63]!
  } else if (rest === 2) {
    const value = (bytes[index]! << 16) | (bytes[index + 1]! << 8)
    chunk += ALPHABET[value >> 18]! + ALPHABET[(value >> 12) & 63]! + ALPHABET[(value >> 6) & 63]!
  }
  chunks.push(chunk)
  return chunks.join('')
}

/** The length `encodeBase64Url` gives for this many bytes. */
export function base64UrlLength(byteCount: number): number {
  return Math.floor(byteCount / 3) * 4 + [0, 2, 3][byteCount % 3]!
}

/**
 * Decodes strictly: any character outside the alphabet is corruption. A trailing lone character (which no encoder
 * produces) means the text was cut mid-group; its bits are dropped so the decompressor reports the truncation.
 */
export function decodeBase64Url(text: string): Uint8Array {
  const usable = text.length % 4 === 1 ? text.length - 1 : text.length
  const out = new Uint8Array(Math.floor((usable * 3) / 4))
  let bits = 0
  let buffer = 0
  let position = 0
  for (let index = 0; index < usable; index++) {
    const code = text.charCodeAt(index)
    const value = code < 128 ? VALUES[code]! : -1
    if (value < 0) throw new ImportCorruptError(`unexpected character at position ${index}`)
    buffer = ((buffer << 6) | value) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[position++] = (buffer >> bits) & 0xff
    }
  }
  return out.subarray(0, position)
}

/** Standard base64 with padding, for binary files in an export. */
export function encodeBase64(bytes: Uint8Array): string {
  const url = encodeBase64Url(bytes).replace(/-/g, '+').replace(/_/g, '/')
  return url + '='.repeat((4 - (url.length % 4)) % 4)
}

export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '')
  if (/[-_]/.test(clean)) throw new ImportCorruptError('a file is not valid base64')
  return decodeBase64Url(clean.replace(/\+/g, '-').replace(/\//g, '_'))
}
