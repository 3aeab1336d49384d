/** CRC-32 as zip, gzip and PNG use it (IEEE 802.3, reflected polynomial 0xEDB88320), one table lookup per byte. */
const TABLE = (() => {
  const table = new Int32Array(256)
  for (let index = 0; index < 256; index++) {
    let value = index
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1
    table[index] = value
  }
  return table
})()

/**
 * Continues a CRC-32 over `data`; start from 0 and feed the chunks in order (`crc32(b, crc32(a))` is the CRC of a
 * then b). Returns an unsigned 32-bit number, as zip headers store it.
 */
export function crc32(data: Uint8Array, previous = 0): number {
  let crc = ~previous
  for (let index = 0; index < data.length; index++) crc = TABLE[(crc ^ data[index]!) & 0xff]! ^ (crc >>> 8)
  return ~crc >>> 0
}
