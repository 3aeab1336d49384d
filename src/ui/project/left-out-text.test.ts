import { describe, expect, it } from 'vitest'
import { leftOutText } from './left-out-text'

describe('what an import left out, in words', () => {
  it('says nothing when everything was kept', () => {
    expect(leftOutText({ files: 0, folders: [] })).toBeUndefined()
  })

  it('names the folders and counts the files', () => {
    expect(leftOutText({ files: 1, folders: ['node_modules'] })).toMatch(/^Left out 1 file in node_modules: /)
    expect(leftOutText({ files: 12_345, folders: ['dist', 'node_modules'] })).toMatch(/^Left out 12,345 files in dist and node_modules: /)
  })

  it('counts the folders past the third', () => {
    expect(leftOutText({ files: 9, folders: ['a', 'b', 'c', 'd', 'e'] })).toMatch(/^Left out 9 files in a, b, c and 2 more folders: /)
  })
})
