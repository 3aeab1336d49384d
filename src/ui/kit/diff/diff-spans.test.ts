import { describe, expect, it } from 'vitest'
import { mergeSpans, tokensByLine } from './diff-spans'

describe('tokensByLine', () => {
  it('splits the highlighter runs of a joined text back into lines', () => {
    expect(
      tokensByLine([
        { text: 'const', classes: 'tok-keyword' },
        { text: ' a\n', classes: '' },
        { text: '\n', classes: '' },
        { text: '1', classes: 'tok-number' },
      ]),
    ).toEqual([[{ text: 'const', classes: 'tok-keyword' }, { text: ' a', classes: '' }], [], [{ text: '1', classes: 'tok-number' }]])
  })
})

describe('mergeSpans', () => {
  it('cuts a line where either the syntax colour or the changed words change', () => {
    const tokens = [
      { text: 'let', classes: 'tok-keyword' },
      { text: ' x = ', classes: '' },
      { text: '42', classes: 'tok-number' },
    ]
    const words = [
      { text: 'let x = ', changed: false },
      { text: '42', changed: true },
    ]
    expect(mergeSpans('let x = 42', tokens, words)).toEqual([
      { text: 'let', classes: 'tok-keyword', changed: false },
      { text: ' x = ', classes: '', changed: false },
      { text: '42', classes: 'tok-number', changed: true },
    ])
  })

  it('marks a changed word that spans two tokens in both', () => {
    expect(
      mergeSpans('ab cd', [{ text: 'ab', classes: 'tok-a' }, { text: ' cd', classes: '' }], [
        { text: 'a', changed: false },
        { text: 'b c', changed: true },
        { text: 'd', changed: false },
      ]).map((span) => [span.text, span.classes, span.changed]),
    ).toEqual([
      ['a', 'tok-a', false],
      ['b', 'tok-a', true],
      [' c', '', true],
      ['d', '', false],
    ])
  })

  it('gives the plain line when nothing is known yet', () => {
    expect(mergeSpans('plain', undefined, undefined)).toEqual([{ text: 'plain', classes: '', changed: false }])
  })
})
