import { describe, expect, it } from 'vitest'
import { isBuiltinExcluded, isIgnored, parseGitignore } from './gitignore'

describe('.gitignore subset', () => {
  const rules = parseGitignore(
    [
      '# build output',
      '',
      'dist/',
      '*.log',
      '!keep.log',
      '/root-only.txt',
      'docs/*.tmp',
      '**/cache/**',
      'secret?.env',
      'tmp[0-9]',
      '\\#literal',
      'trailing   ',
    ].join('\n'),
  )

  it.each<[string, boolean, boolean]>([
    ['dist', true, true],
    ['dist', false, false],
    ['packages/a/dist', true, true],
    ['error.log', false, true],
    ['deep/dir/error.log', false, true],
    ['keep.log', false, false],
    ['deep/keep.log', false, false],
    ['root-only.txt', false, true],
    ['sub/root-only.txt', false, false],
    ['docs/a.tmp', false, true],
    ['docs/sub/a.tmp', false, false],
    ['other/docs/a.tmp', false, false],
    ['a/cache/b.txt', false, true],
    ['cache/x/y', false, true],
    ['secret1.env', false, true],
    ['secret12.env', false, false],
    ['tmp7', false, true],
    ['tmpx', false, false],
    ['#literal', false, true],
    ['trailing', false, true],
    ['src/index.ts', false, false],
  ])('%s (directory: %s) → %s', (path, isDirectory, expected) => {
    expect(isIgnored(rules, path, isDirectory)).toBe(expected)
  })
})

it('ignores a byte order mark before the first pattern', () => {
  expect(isIgnored(parseGitignore('\uFEFFdist/\n'), 'dist', true)).toBe(true)
})

describe('built-in exclusions', () => {
  it.each<[string, boolean, boolean]>([
    ['node_modules', true, true],
    ['packages/a/node_modules', true, true],
    ['.git', true, true],
    ['.git', false, true],
    ['.tabcode', true, false],
    ['.tabcode', false, true],
    ['.tabcode/state.json', false, true],
    ['.tabcode/cache', true, true],
    ['.tabcode/plans', true, false],
    ['.tabcode/plans/plan.md', false, false],
    ['src/.tabcode/x', false, false],
    ['.github/workflows/ci.yml', false, false],
  ])('%s (directory: %s) → %s', (path, isDirectory, expected) => {
    expect(isBuiltinExcluded(path, isDirectory)).toBe(expected)
  })
})
