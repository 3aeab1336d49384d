import { describe, expect, test } from 'vitest'
import { matchWildcard } from './wildcard'

describe('matchWildcard', () => {
  test.each([
    // [value, pattern, matches]
    ['anything at all', '*', true],
    ['', '*', true],
    ['src/a/b/index.ts', '*.ts', true],
    ['src/index.js', '*.ts', false],
    ['src/index.ts', 'src/*', true],
    ['test/index.ts', 'src/*', false],
    ['a/b/c', 'a*c', true],
    ['abc', 'a?c', true],
    ['a/c', 'a?c', true],
    ['ac', 'a?c', false],
    ['abbc', 'a?c', false],
    ['.env', '*.env', true],
    ['config/.env', '*.env', true],
    ['.env.local', '*.env', false],
    ['.env.local', '*.env.*', true],
    ['.env.example', '*.env.example', true],
    // a trailing " *" makes the arguments optional
    ['git commit', 'git commit *', true],
    ['git commit -m "fix it"', 'git commit *', true],
    ['git commits', 'git commit *', false],
    ['git', 'git *', true],
    ['gitk', 'git *', false],
    ['npm install', 'git *', false],
    ['ls', 'ls *', true],
    ['ls -la', 'ls *', true],
    // only a trailing " *" is optional
    ['rm', 'rm * x', false],
    ['rm -rf /tmp', 'rm -rf *', true],
    // regex characters are literal
    ['a.b', 'a.b', true],
    ['axb', 'a.b', false],
    ['f(x)', 'f(x)', true],
    ['fx', 'f(x)', false],
    ['a+b', 'a+b', true],
    ['aab', 'a+b', false],
    ['[ab]', '[ab]', true],
    ['a', '[ab]', false],
    ['^$', '^$', true],
    ['{a,b}', '{a,b}', true],
    ['a|b', 'a|b', true],
    ['a', 'a|b', false],
    ['C:\\dir', 'C:\\dir', true],
    // anchored on both ends, and a star crosses newlines
    ['xabc', 'abc', false],
    ['abcx', 'abc', false],
    ['echo one\necho two', 'echo *', true],
    // case matters (no Windows folding)
    ['README.md', 'readme.md', false],
  ])('%j against %j → %s', (value, pattern, expected) => {
    expect(matchWildcard(value, pattern)).toBe(expected)
  })
})
