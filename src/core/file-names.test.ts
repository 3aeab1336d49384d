import { describe, expect, it } from 'vitest'
import { childPath, moveProblem, nameProblem } from './file-names'

describe('nameProblem', () => {
  it('accepts an ordinary new name', () => {
    expect(nameProblem('app.ts', ['index.ts', 'src'])).toBeUndefined()
    expect(nameProblem('.gitignore', [])).toBeUndefined()
  })

  it('says what is wrong with an empty, slashed, dotted or taken name', () => {
    expect(nameProblem('', [])).toBe('A name is needed.')
    expect(nameProblem('   ', [])).toBe('A name is needed.')
    expect(nameProblem(' a.ts', [])).toBe('A name cannot start or end with a space.')
    expect(nameProblem('src/a.ts', [])).toMatch(/cannot contain "\/"/)
    expect(nameProblem('a\\b', [])).toMatch(/cannot contain/)
    expect(nameProblem('..', [])).toBe('".." is not a name a file or folder can have.')
    expect(nameProblem('.', [])).toMatch(/not a name/)
    expect(nameProblem('x'.repeat(256), [])).toMatch(/at most 255/)
  })

  it('refuses a name that exists already, whatever its case', () => {
    expect(nameProblem('index.ts', ['index.ts'])).toBe('"index.ts" already exists here.')
    expect(nameProblem('README.md', ['readme.md'])).toBe('"README.md" already exists here.')
  })
})

describe('moveProblem', () => {
  it('allows a move to another folder', () => {
    expect(moveProblem('/workspace/a.ts', '/workspace/src')).toBeUndefined()
    expect(moveProblem('/workspace/src/a.ts', '/workspace')).toBeUndefined()
    expect(moveProblem('/workspace/lib', '/workspace/library')).toBeUndefined()
  })

  it('refuses a folder into itself or below, and a move to where it is', () => {
    expect(moveProblem('/workspace/src', '/workspace/src')).toBe('A folder cannot be moved into itself.')
    expect(moveProblem('/workspace/src', '/workspace/src/deep')).toBe('A folder cannot be moved into itself.')
    expect(moveProblem('/workspace/src/a.ts', '/workspace/src')).toBe('a.ts is already in that folder.')
  })
})

it('childPath joins without doubling the slash', () => {
  expect(childPath('/workspace', 'a')).toBe('/workspace/a')
  expect(childPath('/', 'a')).toBe('/a')
})
