import { describe, expect, test } from 'vitest'
import { deepEqual, doomLoopRequest, isDoomLoop } from './doom-loop'

const read = (path: string) => ({ tool: 'read', input: { path } })

describe('isDoomLoop', () => {
  test('three identical calls in a row', () => {
    expect(isDoomLoop([read('a'), read('a'), read('a')])).toBe(true)
  })

  test('only the last three count', () => {
    expect(isDoomLoop([read('b'), read('a'), read('a'), read('a')])).toBe(true)
    expect(isDoomLoop([read('a'), read('a'), read('a'), read('b')])).toBe(false)
  })

  test('fewer calls than the threshold', () => {
    expect(isDoomLoop([read('a'), read('a')])).toBe(false)
    expect(isDoomLoop([])).toBe(false)
  })

  test('different input or a different tool breaks the run', () => {
    expect(isDoomLoop([read('a'), read('b'), read('a')])).toBe(false)
    expect(isDoomLoop([read('a'), { tool: 'glob', input: { path: 'a' } }, read('a')])).toBe(false)
  })

  test('inputs are compared deeply, whatever the key order', () => {
    const call = (input: unknown) => ({ tool: 'edit', input })
    const first = { path: 'a.ts', edits: [{ old: 'x', new: 'y' }], options: { all: true } }
    const reordered = { options: { all: true }, edits: [{ new: 'y', old: 'x' }], path: 'a.ts' }
    expect(isDoomLoop([call(first), call(reordered), call(structuredClone(first))])).toBe(true)
    expect(isDoomLoop([call(first), call(first), call({ ...first, edits: [{ old: 'x', new: 'z' }] })])).toBe(false)
  })

  test('a custom threshold', () => {
    expect(isDoomLoop([read('a'), read('a')], 2)).toBe(true)
    expect(isDoomLoop([read('a'), read('a'), read('a')], 4)).toBe(false)
  })
})

describe('deepEqual', () => {
  test.each([
    [1, 1, true],
    [1, '1', false],
    [null, null, true],
    [null, {}, false],
    [[1, 2], [1, 2], true],
    [[1, 2], [2, 1], false],
    [[], {}, false],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [{ a: 1 }, { b: 1 }, false],
    [{ a: [{ b: 'c' }] }, { a: [{ b: 'c' }] }, true],
    [Number.NaN, Number.NaN, true],
  ])('%j vs %j → %s', (a, b, expected) => {
    expect(deepEqual(a, b)).toBe(expected)
  })
})

test('doomLoopRequest asks doom_loop for the tool', () => {
  expect(doomLoopRequest(read('a'))).toEqual({
    permission: 'doom_loop',
    patterns: ['read'],
    always: ['read'],
    metadata: { tool: 'read', input: { path: 'a' } },
  })
})
