import { describe, expect, it } from 'vitest'
import { formatJson, truncateText } from './truncate'

describe('truncateText', () => {
  it('leaves short text alone', () => {
    expect(truncateText('a\nb', { maxLines: 5, maxChars: 100 })).toEqual({ text: 'a\nb', truncated: false, totalLines: 2 })
  })

  it('keeps the first lines when there are too many', () => {
    const text = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n')
    expect(truncateText(text, { maxLines: 3, maxChars: 1000 })).toEqual({
      text: 'line 1\nline 2\nline 3',
      truncated: true,
      totalLines: 10,
    })
  })

  it('stops at whole lines when characters run out first', () => {
    const text = ['aaaa', 'bbbb', 'cccc'].join('\n')
    expect(truncateText(text, { maxLines: 10, maxChars: 10 })).toEqual({ text: 'aaaa\nbbbb', truncated: true, totalLines: 3 })
  })

  it('cuts inside a single line that is longer than the limit on its own', () => {
    expect(truncateText('x'.repeat(50), { maxLines: 10, maxChars: 8 })).toEqual({
      text: 'x'.repeat(8),
      truncated: true,
      totalLines: 1,
    })
  })
})

describe('formatJson', () => {
  it('indents objects and survives values JSON cannot encode', () => {
    expect(formatJson({ command: 'ls' })).toBe('{\n  "command": "ls"\n}')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(formatJson(cyclic)).toBe('[object Object]')
    expect(formatJson(undefined)).toBe('undefined')
  })
})
