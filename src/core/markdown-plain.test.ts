import { describe, expect, it } from 'vitest'
import { markdownToPlain } from './markdown-plain'

describe('markdown as the words a reader sees', () => {
  it('drops heading, list, quote and fence syntax', () => {
    const text = ['## Goal', '', '- **Fix** the `parser` bug', '1. then *test* it', '> quoted', '```ts', 'const a = 1', '```'].join('\n')
    expect(markdownToPlain(text).replace(/\s+/g, ' ').trim()).toBe('Goal Fix the parser bug then test it quoted const a = 1')
  })

  it('keeps link and image text, task items and table cells', () => {
    expect(markdownToPlain('See [the docs](https://x.dev/a) and ![a chart](c.png)')).toBe('See the docs and a chart')
    expect(markdownToPlain('- [x] done item')).toBe('done item')
    expect(markdownToPlain('| a | b |\n| --- | --- |\n| 1 | 2 |').replace(/\s+/g, ' ').trim()).toBe('a b 1 2')
  })

  it('leaves words with underscores and stars in them alone', () => {
    expect(markdownToPlain('call snake_case_name with 2*3*4')).toBe('call snake_case_name with 2*3*4')
  })
})
