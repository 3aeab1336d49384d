import { describe, expect, it } from 'vitest'
import {
  DISPROPORTIONATE_MESSAGE,
  IDENTICAL_MESSAGE,
  indentationFlexibleReplacer,
  MULTIPLE_MATCHES_MESSAGE,
  multiOccurrenceReplacer,
  NOT_FOUND_MESSAGE,
  replace,
  ReplaceError,
  type ReplacerName,
} from './replace'

interface StrategyCase {
  strategy: ReplacerName
  why: string
  content: string
  oldString: string
  newString: string
  expected: string
}

// Each case is one only its strategy (and no earlier one in the cascade) can match.
const strategies: StrategyCase[] = [
  {
    strategy: 'simple',
    why: 'the exact text',
    content: 'const a = 1\nconst b = 2\n',
    oldString: 'const b = 2',
    newString: 'const b = 3',
    expected: 'const a = 1\nconst b = 3\n',
  },
  {
    strategy: 'line-trimmed',
    why: 'lines that differ only in their indentation',
    content: 'function f() {\n    call(1)\n    call(2)\n}\n',
    oldString: 'call(1)\ncall(2)',
    newString: '    call(3)',
    expected: 'function f() {\n    call(3)\n}\n',
  },
  {
    strategy: 'block-anchor',
    why: 'a block found by its first and last lines whose middle is similar enough',
    content: 'function sum(a, b) {\n  return a + b + 0\n}\n',
    oldString: 'function sum(a, b) {\n  return a + b + 1\n}',
    newString: 'function sum(a, b) {\n  return a + b\n}',
    expected: 'function sum(a, b) {\n  return a + b\n}\n',
  },
  {
    strategy: 'whitespace-normalized',
    why: 'runs of whitespace inside a line',
    content: 'const   total =  price *   count\n',
    oldString: 'const total = price * count',
    newString: 'const total = price * count * tax',
    expected: 'const total = price * count * tax\n',
  },
  {
    strategy: 'escape-normalized',
    why: 'a newline written as an escape sequence',
    content: 'first line\nsecond line\n',
    oldString: 'first line\\nsecond line',
    newString: 'only line',
    expected: 'only line\n',
  },
  {
    strategy: 'trimmed-boundary',
    why: 'surrounding blank lines around a block the file has',
    content: 'alpha\nbeta\n',
    oldString: '\nalpha\nbeta\n',
    newString: 'gamma',
    expected: 'gamma\n',
  },
  {
    strategy: 'context-aware',
    why: 'a block with the same anchors where half of the middle lines are exact',
    content: 'if (ready) {\n  start()\n  qqqqqqqqqqqq\n}\n',
    oldString: 'if (ready) {\n  start()\n  zzzzzzzzzzzz\n}',
    newString: 'if (ready) start()',
    expected: 'if (ready) start()\n',
  },
]

describe('replace', () => {
  it.each(strategies)('$strategy matches $why', ({ strategy, content, oldString, newString, expected }) => {
    expect(replace(content, oldString, newString)).toEqual({ content: expected, strategy, occurrences: 1 })
  })

  // Whatever indentation-flexible matches, whitespace-normalized (earlier) matches too, and multi-occurrence yields
  // what simple already tried; so they never win the cascade and are tested on their own.
  it('indentation-flexible yields blocks equal once the common indentation is removed', () => {
    const content = 'class A {\n    method() {\n        body()\n    }\n}'
    expect([...indentationFlexibleReplacer(content, 'method() {\n    body()\n}')]).toEqual(['    method() {\n        body()\n    }'])
    expect([...indentationFlexibleReplacer(content, 'method() {\nbody()\n}')]).toEqual([])
  })

  it('multi-occurrence yields every exact occurrence', () => {
    expect([...multiOccurrenceReplacer('x.x.x', 'x')]).toEqual(['x', 'x', 'x'])
  })

  it('refuses a non-unique match and asks for more context', () => {
    expect(() => replace('call()\ncall()\n', 'call()', 'run()')).toThrow(MULTIPLE_MATCHES_MESSAGE)
  })

  it('replaces every occurrence with replaceAll, taking $ in newString literally', () => {
    expect(replace('a(x)\nb(x)\n', 'x', '$&y', true)).toEqual({ content: 'a($&y)\nb($&y)\n', strategy: 'simple', occurrences: 2 })
  })

  it('says when oldString is not in the file', () => {
    expect(() => replace('hello\n', 'goodbye', 'bye')).toThrow(NOT_FOUND_MESSAGE)
  })

  it('refuses identical strings and an empty oldString', () => {
    expect(() => replace('a', 'a', 'a')).toThrow(IDENTICAL_MESSAGE)
    expect(() => replace('a', '', 'b')).toThrowError(expect.objectContaining({ reason: 'empty' }))
  })

  it('refuses a block-anchor match far longer than oldString', () => {
    // The similarity check stops once the first middle lines reach the threshold, so the long line is never compared.
    const content = `function f() {\n  a()\n  b()\n  ${'x'.repeat(3_000)}\n}\n`
    const attempt = () => replace(content, 'function f() {\n  a()\n  b()\n  c()\n}', 'function f() {}')
    expect(attempt).toThrow(DISPROPORTIONATE_MESSAGE)
    expect(attempt).toThrowError(expect.objectContaining({ reason: 'disproportionate' }))
  })

  it('refuses a one-line oldString whose escapes unfold into many lines', () => {
    expect(() => replace('a\n\n\n\nb\n', 'a\\n\\n\\n\\nb', 'ab')).toThrow(DISPROPORTIONATE_MESSAGE)
  })

  it('ignores the empty candidates a whitespace-only oldString produces', () => {
    expect(() => replace('a\n\nb', '   ', 'x', true)).toThrow(ReplaceError)
  })
})
