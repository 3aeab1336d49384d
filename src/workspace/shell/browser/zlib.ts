import { Gunzip, gzipSync as gzip } from 'fflate'

/**
 * The part of `node:zlib` just-bash's browser build imports (for its gzip, gunzip and zcat), on fflate: that build
 * leaves `node:zlib` to the bundler, which has no browser version of it. vite.config.ts puts this module in its place
 * for that one importer (`browserShims`).
 */

export const constants = { Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1 }

interface Options {
  level?: number
  /** Node fails rather than produce more than this many bytes; so does this. */
  maxOutputLength?: number
}

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9

export function gzipSync(data: Uint8Array, options: Options = {}): Uint8Array {
  const level = options.level === undefined || options.level < 0 ? 6 : Math.min(9, options.level)
  return limited([gzip(data, { level: level as Level })], options)
}

/** Every member of the input, one after another, as gzip and Node read concatenated gzip files. */
export function gunzipSync(data: Uint8Array, options: Options = {}): Uint8Array {
  if (data.length < 18 || data[0] !== 0x1f || data[1] !== 0x8b) throw new Error('incorrect header check')
  const parts: Uint8Array[] = []
  const stream = new Gunzip((chunk) => parts.push(chunk))
  stream.push(data, true)
  return limited(parts, options)
}

function limited(parts: Uint8Array[], options: Options): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0)
  if (options.maxOutputLength !== undefined && length > options.maxOutputLength) {
    throw new RangeError(`Cannot create a Buffer larger than ${options.maxOutputLength} bytes`)
  }
  const out = parts.length === 1 ? parts[0]! : new Uint8Array(length)
  if (parts.length !== 1) {
    let offset = 0
    for (const part of parts) {
      out.set(part, offset)
      offset += part.length
    }
  }
  return out
}
