import { zipSync, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { filesFromZip, IMPORT_LIMITS, ImportError, prepareImport, prepareUpload } from './import-files'

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
})
