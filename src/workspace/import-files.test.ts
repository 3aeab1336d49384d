import { deflateSync, zipSync, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { filesFromZip, IMPORT_LIMITS, prepareImport, prepareUpload } from './import-files'
import { ImportError, ZipChecksumError, ZipEntrySizeError } from './import-error'
import { buildZip, lyingZip } from './testing/zip-archive'
import { zeroDeflate } from '../testing/deflate-bomb'
import { crc32 } from './crc32'

const MiB = 1024 * 1024
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

const file = (path: string, text = 'x') => ({ path, data: strToU8(text) })

describe('importing files into a project', () => {
  it('unwraps a single top-level folder and drops junk', () => {
    const { files } = prepareImport([file('app/src/a.ts'), file('app/README.md'), file('app/.DS_Store'), file('__MACOSX/app/._a')])
    expect(files.map((entry) => entry.path)).toEqual(['src/a.ts', 'README.md'])
  })

  it('keeps paths inside the project whatever the archive says', () => {
    const { files } = prepareImport([file('../../etc/passwd'), file('/abs/b.txt'), file('c\\d.txt')])
    expect(files.map((entry) => entry.path)).toEqual(['etc/passwd', 'abs/b.txt', 'c/d.txt'])
  })

  it('reads a zip archive', async () => {
    const zip = zipSync({ 'proj/index.html': strToU8('<h1>hi</h1>'), 'proj/src/': new Uint8Array(), 'proj/src/main.js': strToU8('1') })
    const { files } = await filesFromZip(zip)
    expect(files.map((entry) => [entry.path, new TextDecoder().decode(entry.data)])).toEqual([
      ['index.html', '<h1>hi</h1>'],
      ['src/main.js', '1'],
    ])
  })

  it('refuses something that is not a zip with a clear error', async () => {
    await expect(filesFromZip(strToU8('not a zip'))).rejects.toThrow(ImportError)
  })

  it('leaves out node_modules at any depth and the folders the root .gitignore ignores, and counts them', () => {
    const { files, leftOut } = prepareImport([
      file('app/.gitignore', 'dist/\n*.log\n/build\n'),
      file('app/src/a.ts'),
      file('app/node_modules/left/index.js'),
      file('app/node_modules/left/package.json'),
      file('app/packages/ui/node_modules/right/index.js'),
      file('app/dist/bundle.js'),
      file('app/build/out.txt'),
      file('app/src/build/kept.ts'),
      file('app/debug.log'),
    ])
    // Ignored files (debug.log) are kept: the user may want them; only whole folders are left out.
    expect(files.map((entry) => entry.path).sort()).toEqual(['.gitignore', 'debug.log', 'src/a.ts', 'src/build/kept.ts'])
    expect(leftOut).toEqual({ files: 5, folders: ['build', 'dist', 'node_modules', 'packages/ui/node_modules'] })
  })

  it('counts only what is kept against the limits, so a huge node_modules does not stop an import', () => {
    const many = Array.from({ length: IMPORT_LIMITS.files + 10 }, (_, index) => file(`node_modules/pkg/${index}.js`))
    const { files, leftOut } = prepareImport([file('index.js'), ...many])
    expect(files.map((entry) => entry.path)).toEqual(['index.js'])
    expect(leftOut.files).toBe(IMPORT_LIMITS.files + 10)
  })

  it('never inflates a zip entry inside node_modules, and still unwraps the archive folder', async () => {
    const zip = zipSync({
      'proj/index.js': strToU8('1'),
      'proj/node_modules/big/index.js': strToU8('x'.repeat(1000)),
      'proj/node_modules/big/package.json': strToU8('{}'),
    })
    const { files, leftOut } = await filesFromZip(zip)
    expect(files.map((entry) => entry.path)).toEqual(['index.js'])
    expect(leftOut).toEqual({ files: 2, folders: ['node_modules'] })
  })

  it('keeps a file named like a dependency folder, and everything of an upload', () => {
    expect(prepareImport([file('README.md'), file('docs/node_modules')]).files.map((entry) => entry.path)).toEqual(['README.md', 'docs/node_modules'])
    expect(prepareUpload([file('web/node_modules/a.js')]).map((entry) => entry.path)).toEqual(['web/node_modules/a.js'])
  })

  it('reads stored and deflated entries, UTF-8 names, and the ZIP64 form', async () => {
    const entries = [
      { name: 'app/readme.md', data: strToU8('# hi') },
      { name: 'app/src/ünï.ts', data: deflateSync(strToU8('export {}\n'.repeat(50))), method: 8 as const, size: 500, crc: crcOf('export {}\n'.repeat(50)) },
    ]
    for (const zip64 of [false, true]) {
      const { files } = await filesFromZip(buildZip(entries, { zip64 }))
      expect(files.map((file) => [file.path, decode(file.data).length])).toEqual([
        ['readme.md', 4],
        ['src/ünï.ts', 500],
      ])
    }
  })

  it('refuses an archive whose entry does not match its CRC-32, naming the entry', async () => {
    const zip = zipSync({ 'app/index.js': strToU8('console.log("hello")\n'), 'app/src/main.js': strToU8('export const answer = 42\n') }, { level: 0 })
    // One byte of the stored file flipped, as a bad download or a tampering would.
    const at = findText(zip, 'answer = 42')
    zip[at] = 'A'.charCodeAt(0)
    const error = await filesFromZip(zip).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ZipChecksumError)
    expect(error).toMatchObject({ name: 'ZipChecksumError', data: { path: 'app/src/main.js' } })
    expect((error as Error).message).toBe("app/src/main.js is damaged in this archive: its contents do not match the archive's CRC-32 checksum, so nothing was imported.")
  })

  it('stops an entry that inflates past its declared size at the first slice past it, never inflating the rest', async () => {
    // 7 × 256 MiB of zeros, each entry declaring 1 KB: 1.8 MB on disk.
    const zip = lyingZip()
    expect(zip.length).toBeLessThan(2 * MiB)
    const error = await filesFromZip(zip).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ZipEntrySizeError)
    expect(error).toMatchObject({ name: 'ZipEntrySizeError', data: { path: 'data/part-0.bin', declared: 1024 } })
    // One 16 KB slice of input expands at most ~1032×: what was inflated is that, not the 256 MiB the entry holds.
    expect((error as InstanceType<typeof ZipEntrySizeError>).data.inflated).toBeLessThanOrEqual(17 * MiB)
    expect((error as Error).message).toBe(
      'data/part-0.bin holds more than the 1,024 bytes this archive declares for it: the archive is damaged or built to exhaust memory, so nothing was imported.',
    )
  })

  it('refuses an archive that declares more than the limit before inflating anything', async () => {
    const bomb = zeroDeflate(128)
    const zip = buildZip([0, 1].map((index) => ({ name: `part-${index}.bin`, data: bomb, method: 8 as const, size: 128 * MiB })))
    await expect(filesFromZip(zip)).rejects.toThrow('Too large: a project can be imported with at most 200 MB of files.')
  })

  it('names an entry whose data is damaged, shorter than declared, encrypted or compressed in a way it cannot read', async () => {
    const cases: Array<[Parameters<typeof buildZip>[0][number], string]> = [
      [{ name: 'broken.js', data: Uint8Array.from([0xff, 0xff, 0xff]), method: 8, size: 10 }, 'broken.js is damaged in this archive: its compressed data cannot be read'],
      [{ name: 'short.txt', data: strToU8('abc'), size: 10 }, 'short.txt is damaged in this archive: it holds 3 bytes where the archive declares 10'],
      [{ name: 'long.txt', data: strToU8('abcdef'), size: 3 }, 'long.txt holds more than the 3 bytes this archive declares for it'],
      [{ name: 'lzma.bin', data: strToU8('abc'), method: 14 as never }, 'lzma.bin is damaged in this archive: it is compressed with method 14, which tabcode cannot read'],
    ]
    for (const [entry, message] of cases) await expect(filesFromZip(buildZip([entry]))).rejects.toThrow(message)
    const encrypted = buildZip([{ name: 'secret.txt', data: strToU8('abc') }])
    // The general-purpose flag's first bit, in the central directory.
    encrypted[findBytes(encrypted, [0x50, 0x4b, 1, 2]) + 8]! |= 1
    await expect(filesFromZip(encrypted)).rejects.toThrow('secret.txt is damaged in this archive: it is encrypted, which tabcode cannot read')
    await expect(filesFromZip(buildZip([{ name: 'a.txt', data: strToU8('abc') }]).subarray(0, 40))).rejects.toThrow('This is not a readable zip archive')
  })

  it('lets other work run while a large archive inflates', async () => {
    // 64 entries of 256 KiB: small entries are the ones an inflater is tempted to do in one synchronous run.
    const size = 256 * 1024
    const zeros = new Uint8Array(size)
    const entry = { data: deflateSync(zeros), method: 8 as const, size, crc: crc32(zeros) }
    const zip = buildZip(Array.from({ length: 64 }, (_, index) => ({ name: `part-${index}.bin`, ...entry })))
    let finished = false
    const importing = filesFromZip(zip).then((result) => {
      finished = true
      return result
    })
    // A task queued once the import has started: it runs before the import ends only if the import yields.
    const ranDuringImport = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!finished), 0))
    expect(ranDuringImport).toBe(true)
    expect((await importing).files).toHaveLength(64)
  })
})

function findBytes(haystack: Uint8Array, needle: readonly number[]): number {
  for (let index = 0; index + needle.length <= haystack.length; index++) {
    if (needle.every((byte, offset) => haystack[index + offset] === byte)) return index
  }
  throw new Error(`not found: ${needle.join(',')}`)
}

const findText = (haystack: Uint8Array, text: string) => findBytes(haystack, [...strToU8(text)])

const crcOf = (text: string) => crc32(strToU8(text))
