import { describe, expect, it } from 'vitest'
import { matchesGlob } from './glob'

describe('file globs', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/*.{ts,tsx}', 'a/b.tsx', true],
    ['**/*.{ts,tsx}', 'a/b.js', false],
    ['file?.md', 'file1.md', true],
    ['file[12].md', 'file3.md', false],
    ['a.b', 'axb', false],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(matchesGlob(pattern, path)).toBe(expected)
  })
})
