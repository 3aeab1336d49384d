import { zipSync, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { filesFromZip, ImportError, prepareImport } from './import-files'

const file = (path: string, text = 'x') => ({ path, data: strToU8(text) })

describe('importing files into a project', () => {
  it('unwraps a single top-level folder and drops junk', () => {
    const files = prepareImport([file('app/src/a.ts'), file('app/README.md'), file('app/.DS_Store'), file('__MACOSX/app/._a')])
    expect(files.map((entry) => entry.path)).toEqual(['src/a.ts', 'README.md'])
  })

  it('keeps paths inside the project whatever the archive says', () => {
    const files = prepareImport([file('../../etc/passwd'), file('/abs/b.txt'), file('c\\d.txt')])
    expect(files.map((entry) => entry.path)).toEqual(['etc/passwd', 'abs/b.txt', 'c/d.txt'])
  })

  it('reads a zip archive', async () => {
    const zip = zipSync({ 'proj/index.html': strToU8('<h1>hi</h1>'), 'proj/src/': new Uint8Array(), 'proj/src/main.js': strToU8('1') })
    const files = await filesFromZip(zip)
    expect(files.map((entry) => [entry.path, new TextDecoder().decode(entry.data)])).toEqual([
      ['index.html', '<h1>hi</h1>'],
      ['src/main.js', '1'],
    ])
  })

  it('refuses something that is not a zip with a clear error', async () => {
    await expect(filesFromZip(strToU8('not a zip'))).rejects.toThrow(ImportError)
  })
})
