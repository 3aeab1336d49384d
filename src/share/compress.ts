import { deflateSync } from 'fflate'
import { ImportCorruptError, ImportTooLargeError, ImportTruncatedError } from './errors'

/**
 * Raw DEFLATE (RFC 1951, what `CompressionStream('deflate-raw')` makes) at the highest level. fflate rather than
 * CompressionStream here: the level is ours to pick (9 saves a few percent of link length), the bytes are the same
 * in every browser, and it runs synchronously, so the size meter can call it on every option change.
 */
export function deflateRaw(data: Uint8Array): Uint8Array {
  return deflateSync(data, { level: 9, mem: 8 })
}

/** Classifies the engine's error text: every engine words a stream that ends early differently. */
function failure(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error)
  if (/truncat|unexpected end|end of (file|stream|input)|incomplete/i.test(message)) {
    return new ImportTruncatedError('the compressed data ends early')
  }
  return new ImportCorruptError(`not compressed data: ${message}`)
}

/**
 * Inflates raw DEFLATE with the platform's native DecompressionStream, counting output chunk by chunk and
 * cancelling the stream as soon as it passes `cap`: a compression bomb costs the time to inflate `cap` bytes,
 * never its full size. (fflate's JavaScript inflater is ~5× slower on a bomb's long runs, which matters here.)
 */
export async function inflateRawCapped(data: Uint8Array, cap: number): Promise<Uint8Array> {
  if (data.length === 0) throw new ImportTruncatedError('no compressed data')
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>
    try {
      step = await reader.read()
    } catch (error) {
      throw failure(error)
    }
    if (step.done) break
    total += step.value.length
    if (total > cap) {
      // Not awaited: cancelling only tells the engine to stop; the answer is already known.
      reader.cancel().catch(() => {})
      throw new ImportTooLargeError('the decompressed content (bytes)', cap, total)
    }
    chunks.push(step.value)
  }
  const out = new Uint8Array(total)
  let position = 0
  for (const chunk of chunks) {
    out.set(chunk, position)
    position += chunk.length
  }
  return out
}
