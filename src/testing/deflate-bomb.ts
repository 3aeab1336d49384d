import { Deflate } from 'fflate'

const MiB = 1024 * 1024

/**
 * `mebibytes` MiB of zeros as raw DEFLATE (~1 KB per MiB) without deflating them all: after a sync flush, the
 * compressed form of one more MiB of zeros is the same bytes every time (its back-references only ever see zeros),
 * so it is repeated.
 */
export function zeroDeflate(mebibytes: number): Uint8Array {
  const pieces: Uint8Array[] = []
  const deflater = new Deflate({ level: 1 }, (chunk) => pieces.push(chunk))
  const zeros = new Uint8Array(MiB)
  deflater.push(zeros)
  deflater.flush(true)
  const first = concatBytes(pieces.splice(0))
  deflater.push(zeros)
  deflater.flush(true)
  const repeated = concatBytes(pieces.splice(0))
  deflater.push(new Uint8Array(0), true)
  const end = concatBytes(pieces.splice(0))
  return concatBytes([first, ...Array.from({ length: mebibytes - 1 }, () => repeated), end])
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
