import { crc32 } from '../crc32'
import { concatBytes, zeroDeflate } from '../../testing/deflate-bomb'

/**
 * Zip archives built byte by byte, so a test can make one that lies: about an entry's size, its checksum, or in
 * ZIP64 form. Layout per PKWARE's APPNOTE: local header and data per entry, then the central directory, then
 * (for ZIP64) its end record and locator, then the end-of-central-directory record.
 */
export interface ArchiveEntry {
  name: string
  /** The bytes as stored: raw DEFLATE when `method` is 8. */
  data: Uint8Array
  /** 0 stored (the default), 8 DEFLATE. */
  method?: 0 | 8
  /** The size the archive declares; the stored data's length by default. */
  size?: number
  /** The CRC-32 the archive declares; that of the stored data by default (right only when `method` is 0). */
  crc?: number
}

const ZIP64_MARK = 0xffffffff

class Writer {
  private readonly parts: Uint8Array[] = []
  length = 0
  private bytes(count: number, fill: (view: DataView) => void): this {
    const part = new Uint8Array(count)
    fill(new DataView(part.buffer))
    this.parts.push(part)
    this.length += count
    return this
  }
  u16 = (value: number) => this.bytes(2, (view) => view.setUint16(0, value, true))
  u32 = (value: number) => this.bytes(4, (view) => view.setUint32(0, value, true))
  u64 = (value: number) => this.bytes(8, (view) => view.setBigUint64(0, BigInt(value), true))
  raw(data: Uint8Array): this {
    this.parts.push(data)
    this.length += data.length
    return this
  }
  done = () => concatBytes(this.parts)
}

/** An archive of `entries`; with `zip64`, every size and offset is given in ZIP64 form. */
export function buildZip(entries: readonly ArchiveEntry[], options: { zip64?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const out = new Writer()
  const central = new Writer()
  const encoder = new TextEncoder()
  for (const entry of entries) {
    const name = encoder.encode(entry.name)
    const method = entry.method ?? 0
    const size = entry.size ?? entry.data.length
    const crc = entry.crc ?? crc32(entry.data)
    const offset = out.length
    out.u32(0x04034b50).u16(20).u16(0x800).u16(method).u32(0).u32(crc).u32(entry.data.length).u32(size).u16(name.length).u16(0).raw(name).raw(entry.data)
    const extra = options.zip64 ? new Writer().u16(1).u16(24).u64(size).u64(entry.data.length).u64(offset).done() : new Uint8Array(0)
    const [sizeField, compressedField, offsetField] = options.zip64 ? [ZIP64_MARK, ZIP64_MARK, ZIP64_MARK] : [size, entry.data.length, offset]
    central.u32(0x02014b50).u16(45).u16(45).u16(0x800).u16(method).u32(0).u32(crc).u32(compressedField).u32(sizeField)
    central.u16(name.length).u16(extra.length).u16(0).u16(0).u16(0).u32(0).u32(offsetField).raw(name).raw(extra)
  }
  const directoryOffset = out.length
  const directory = central.done()
  out.raw(directory)
  if (options.zip64) {
    const zip64End = out.length
    out.u32(0x06064b50).u64(44).u16(45).u16(45).u32(0).u32(0).u64(entries.length).u64(entries.length).u64(directory.length).u64(directoryOffset)
    out.u32(0x07064b50).u32(0).u64(zip64End).u32(1)
  }
  const count = options.zip64 ? 0xffff : entries.length
  out.u32(0x06054b50).u16(0).u16(0).u16(count).u16(count).u32(directory.length).u32(options.zip64 ? ZIP64_MARK : directoryOffset).u16(0)
  return out.done()
}

/**
 * The lying archive of issue 27: entries that declare 1 KB each and inflate to `mebibytes` MiB of zeros each. Seven
 * of 256 MiB make a 1.8 MB file.
 */
export function lyingZip(count = 7, mebibytes = 256): Uint8Array<ArrayBuffer> {
  const bomb = zeroDeflate(mebibytes)
  return buildZip(Array.from({ length: count }, (_, index) => ({ name: `data/part-${index}.bin`, data: bomb, method: 8 as const, size: 1024, crc: 0 })))
}
