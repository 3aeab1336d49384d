import { describe, expect, it } from 'vitest'
import { MemoryFs } from './memory-fs'
import { findTestFiles } from './test-files'

const ROOT = '/workspace'
const project = (...paths: string[]) =>
  new MemoryFs(paths.map((path) => ({ path: `${ROOT}/${path}`, content: new Uint8Array() })), [ROOT])

describe('node --test discovery', () => {
  it('finds the files Node 20 finds, sorted, and none under node_modules', () => {
    // Checked against node v20 on the same tree: it ran exactly these.
    const fs = project(
      'a.test.js', 'b-test.mjs', 'c_test.cjs', 'test-d.js', 'test.js', 'test/deep/helper.js', 'test/data.json',
      'src/e.spec.js', 'src/f.test.ts', 'src/testing.js', 'node_modules/x/g.test.js', 'lib/__tests__/h.js', '.hidden/i.test.js',
    )
    expect(findTestFiles(fs, ROOT, [])).toEqual({
      kind: 'files',
      files: ['.hidden/i.test.js', 'a.test.js', 'b-test.mjs', 'c_test.cjs', 'test-d.js', 'test.js', 'test/deep/helper.js'].map((path) => `${ROOT}/${path}`),
    })
  })

  it('runs a file given by name as it is, searches a folder given, and says when a path is not there', () => {
    const fs = project('src/math.js', 'src/math.test.js', 'other.test.js')
    expect(findTestFiles(fs, ROOT, ['src/math.js'])).toEqual({ kind: 'files', files: [`${ROOT}/src/math.js`] })
    expect(findTestFiles(fs, `${ROOT}/src`, ['.'])).toEqual({ kind: 'files', files: [`${ROOT}/src/math.test.js`] })
    expect(findTestFiles(fs, ROOT, ['nothing'])).toEqual({ kind: 'error', message: `Could not find '${ROOT}/nothing'\n` })
  })
})
