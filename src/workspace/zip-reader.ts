import { Inflate, strFromU8 } from 'fflate'
import { crc32 } from './crc32'
import {
  ZipChecksumError,
  ZipDataPastEndError,
  ZipDeflateError,
  ZipEncryptedError,
  ZipEntryShortError,
  ZipEntrySizeError,
  ZipLocalHeaderError,
  ZipMethodError,
  ZipSizesMissingError,
  ZipUnreadableError,
} from './import-error'

/**
 * Reading a zip archive that came from anywhere. Its table of contents (the central directory) is read first, so an
 * import can refuse an archive by what it declares before inflating a byte; then each entry is inflated with what
 * it declared held to: never past its declared size (checked after every slice of input, so a lie costs one slice
 * of output), exactly that size in the end, and the CRC-32 it declared. fflate's own `unzip` checks neither the size
 * nor the checksum, and inflates every small entry in one synchronous run.
 */

/** One file or folder of an archive, as its central directory declares it. */
export interface ZipEntry {
  /** As stored: `/`-separated by the format, though some archivers write `\`; a folder ends with `/`. */
  name: string
  /** PKWARE's compression method: 0 stored, 8 DEFLATE; nothing else is read. */
  method: number
  encrypted: boolean
  /** What the archive claims; `readZipEntry` holds the entry to both. */
  crc: number
  size: number
  compressedSize: number
  /** Where the entry's local header starts. */
  headerOffset: number
}

const END_OF_DIRECTORY = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_END_OF_DIRECTORY = 0x06064b50
const CENTRAL_HEADER = 0x02014b50
const LOCAL_HEADER = 0x04034b50
const END_RECORD_BYTES = 22
const MAX_COMMENT_BYTES = 0xffff
const UTF8_NAMES = 0x800

/** Little-endian reads that throw `ZipUnreadableError` past the end rather than reading garbage. */
function reader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const at = (offset: number, bytes: number) => {
    if (offset < 0 || offset + bytes > data.length) throw new ZipUnreadableError('past-end')
    return offset
  }
  const u32 = (offset: number) => view.getUint32(at(offset, 4), true)
  return {
    u16: (offset: number) => view.getUint16(at(offset, 2), true),
    u32,
    // Sizes past 2^53 cannot be in an archive held in memory; they fail the bounds checks that follow.
    u64: (offset: number) => u32(offset) + u32(offset + 4) * 2 ** 32,
  }
}

/** The archive's entries, in the order its central directory lists them. */
export function readZipEntries(data: Uint8Array): ZipEntry[] {
  const read = reader(data)
  let end = -1
  for (let offset = data.length - END_RECORD_BYTES; offset >= Math.max(0, data.length - END_RECORD_BYTES - MAX_COMMENT_BYTES); offset--) {
    if (read.u32(offset) === END_OF_DIRECTORY) {
      end = offset
      break
    }
  }
  if (end < 0) throw new ZipUnreadableError('no-end-record')
  let count = read.u16(end + 10)
  let offset = read.u32(end + 16)
  if ((count === 0xffff || offset === 0xffffffff) && end >= 20 && read.u32(end - 20) === ZIP64_LOCATOR) {
    const zip64 = read.u64(end - 20 + 8)
    if (read.u32(zip64) !== ZIP64_END_OF_DIRECTORY) throw new ZipUnreadableError('no-zip64-record')
    count = read.u64(zip64 + 32)
    offset = read.u64(zip64 + 48)
  }
  const entries: ZipEntry[] = []
  for (let index = 0; index < count; index++) {
    if (read.u32(offset) !== CENTRAL_HEADER) throw new ZipUnreadableError('damaged-directory')
    const flags = read.u16(offset + 8)
    const nameLength = read.u16(offset + 28)
    const extraLength = read.u16(offset + 30)
    const commentLength = read.u16(offset + 32)
    const nameStart = offset + 46
    if (nameStart + nameLength + extraLength > data.length) throw new ZipUnreadableError('past-end')
    const entry: ZipEntry = {
      // Without the UTF-8 flag a name is in the archiver's code page; Latin-1, as fflate reads it, keeps every byte.
      name: strFromU8(data.subarray(nameStart, nameStart + nameLength), !(flags & UTF8_NAMES)),
      method: read.u16(offset + 10),
      encrypted: (flags & 1) === 1,
      crc: read.u32(offset + 16),
      compressedSize: read.u32(offset + 20),
      size: read.u32(offset + 24),
      headerOffset: read.u32(offset + 42),
    }
    readZip64Sizes(read, entry, nameStart + nameLength, extraLength)
    entries.push(entry)
    offset = nameStart + nameLength + extraLength + commentLength
  }
  return entries
}

/** The ZIP64 extra field holds, in this order, each of the three values the header marked 0xFFFFFFFF. */
function readZip64Sizes(read: ReturnType<typeof reader>, entry: ZipEntry, start: number, length: number): void {
  const marked = (value: number) => value === 0xffffffff
  if (!marked(entry.size) && !marked(entry.compressedSize) && !marked(entry.headerOffset)) return
  for (let field = start; field + 4 <= start + length; field += 4 + read.u16(field + 2)) {
    if (read.u16(field) !== 1) continue
    let value = field + 4
    const next = () => {
      const result = read.u64(value)
      value += 8
      return result
    }
    if (marked(entry.size)) entry.size = next()
    if (marked(entry.compressedSize)) entry.compressedSize = next()
    if (marked(entry.headerOffset)) entry.headerOffset = next()
    return
  }
  throw new ZipSizesMissingError(entry.name)
}

/**
 * Input pushed to the inflater at a time. DEFLATE expands at most ~1032 times, so one slice yields at most ~16 MB
 * before the size check sees it; most entries are a single slice.
 */
const INFLATE_SLICE = 16 * 1024
/** Stored bytes are checksummed this much at a time, with a turn for other work between. */
const CHECKSUM_SLICE = 1024 * 1024

/**
 * One entry's bytes, held to what the archive declared (size and CRC-32), or an error naming the entry. `pace` is
 * awaited between slices, so the thread answers other work while a large archive inflates.
 */
export async function readZipEntry(data: Uint8Array, entry: ZipEntry, pace: () => Promise<void>): Promise<Uint8Array> {
  if (entry.encrypted) throw new ZipEncryptedError(entry.name)
  if (entry.method !== 0 && entry.method !== 8) throw new ZipMethodError(entry.name, entry.method)
  const read = reader(data)
  if (read.u32(entry.headerOffset) !== LOCAL_HEADER) throw new ZipLocalHeaderError(entry.name)
  const start = entry.headerOffset + 30 + read.u16(entry.headerOffset + 26) + read.u16(entry.headerOffset + 28)
  if (start + entry.compressedSize > data.length) throw new ZipDataPastEndError(entry.name)
  const compressed = data.subarray(start, start + entry.compressedSize)
  const { bytes, crc } = entry.method === 0 ? await stored(compressed, entry, pace) : await inflated(compressed, entry, pace)
  if (bytes.length !== entry.size) throw new ZipEntryShortError(entry.name, entry.size, bytes.length)
  if (crc !== entry.crc) throw new ZipChecksumError(entry.name)
  return bytes
}

async function stored(compressed: Uint8Array, entry: ZipEntry, pace: () => Promise<void>): Promise<{ bytes: Uint8Array; crc: number }> {
  if (compressed.length > entry.size) throw new ZipEntrySizeError(entry.name, entry.size, compressed.length)
  let crc = 0
  for (let offset = 0; offset < compressed.length; offset += CHECKSUM_SLICE) {
    crc = crc32(compressed.subarray(offset, offset + CHECKSUM_SLICE), crc)
    await pace()
  }
  // A copy: a view would keep (and a structured clone would copy) the whole archive's buffer.
  return { bytes: compressed.slice(), crc }
}

async function inflated(compressed: Uint8Array, entry: ZipEntry, pace: () => Promise<void>): Promise<{ bytes: Uint8Array; crc: number }> {
  const chunks: Uint8Array[] = []
  let size = 0
  let crc = 0
  let checked = 0
  const inflater = new Inflate((chunk) => {
    chunks.push(chunk)
    size += chunk.length
  })
  let offset = 0
  do {
    const slice = compressed.subarray(offset, offset + INFLATE_SLICE)
    offset += slice.length
    try {
      inflater.push(slice, offset >= compressed.length)
    } catch (error) {
      throw new ZipDeflateError(entry.name, error instanceof Error ? error.message : String(error))
    }
    // The budget is the size the archive declared: past it, the rest is never inflated.
    if (size > entry.size) throw new ZipEntrySizeError(entry.name, entry.size, size)
    for (; checked < chunks.length; checked++) crc = crc32(chunks[checked]!, crc)
    await pace()
  } while (offset < compressed.length)
  const bytes = new Uint8Array(size)
  let position = 0
  for (const chunk of chunks) {
    bytes.set(chunk, position)
    position += chunk.length
  }
  return { bytes, crc }
}
