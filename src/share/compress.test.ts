import { describe, expect, test } from 'vitest'
import { deflateRaw, inflateRawCapped } from './compress'
import { zeroDeflate } from '../testing/deflate-bomb'

const MiB = 1024 * 1024

describe('capped inflate', () => {
  test('round-trips text and reads what CompressionStream("deflate-raw") makes', async () => {
    const text = new TextEncoder().encode('a session transcript, '.repeat(1000) + 'ünïcode ✓')
    expect(await inflateRawCapped(deflateRaw(text), MiB)).toEqual(text)
    const native = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer())
    expect(await inflateRawCapped(native, MiB)).toEqual(text)
  })

  test('the bomb builder makes a real bomb (checked small)', async () => {
    const inflated = await inflateRawCapped(zeroDeflate(3), 4 * MiB)
    // Compared by hand: a deep equality over millions of elements takes minutes.
    expect(inflated.length).toBe(3 * MiB)
    expect(inflated.every((byte) => byte === 0)).toBe(true)
  })

  test('a 1 GiB bomb is refused at the 20 MiB cap, never inflated whole', async () => {
    const bomb = zeroDeflate(1024)
    expect(bomb.length).toBeLessThan(1.2 * MiB)
    const started = performance.now()
    const error = await inflateRawCapped(bomb, 20 * MiB).catch((caught: unknown) => caught)
    const elapsed = performance.now() - started
    expect(error).toMatchObject({ name: 'ImportTooLargeError', data: { limit: 20 * MiB } })
    // Stopped one native chunk past the cap: the other ~1,000 MiB were never inflated.
    expect((error as { data: { seen: number } }).data.seen).toBeLessThan(21 * MiB)
    // Chromium's DecompressionStream stops this bomb in 64–84 ms; Node's stream adapter hands
    // every 16 KiB chunk to its thread pool and is several times slower, more so on a loaded machine, so the bound
    // here is looser. The 100 ms figure itself belongs to the browser run.
    expect(elapsed).toBeLessThan(3000)
  })

  test('cut-off data is truncated, garbage is corrupt', async () => {
    const compressed = deflateRaw(new TextEncoder().encode(JSON.stringify({ words: Array.from({ length: 500 }, (_, i) => `word${i}`) })))
    await expect(inflateRawCapped(compressed.subarray(0, compressed.length - 40), MiB)).rejects.toMatchObject({ name: 'ImportTruncatedError' })
    await expect(inflateRawCapped(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x12]), MiB)).rejects.toMatchObject({ name: 'ImportCorruptError' })
    await expect(inflateRawCapped(new Uint8Array(0), MiB)).rejects.toMatchObject({ name: 'ImportTruncatedError' })
  })
})
