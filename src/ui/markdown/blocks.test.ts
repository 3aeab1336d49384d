import { describe, expect, test } from 'vitest'
import { lexBlocks, reuseUnchangedBlocks, splitBlocks } from './blocks'

const DOCUMENT = [
  '# Title',
  '',
  'Some *text* with [a reference][r] and <b>html</b>.',
  '',
  '> quote',
  '> more',
  '',
  '- a',
  '- [ ] b',
  '  - nested',
  '',
  '1. one',
  '2. two',
  '',
  '```ts',
  'const a = 1',
  '',
  '',
  'const b = 2',
  '```',
  '',
  '| a | b |',
  '|---|:-:|',
  '| 1 | 2 |',
  '',
  '---',
  '<div>',
  'x',
  '</div>',
  '',
  '[r]: https://example.com "title"',
  '',
  '    indented',
  '    code',
  '',
  'Setext',
  '------',
  '\ttab',
  '',
  '',
].join('\n')

describe('splitBlocks', () => {
  test('returns one raw slice per top-level token', () => {
    expect(splitBlocks('# Title\n\nA paragraph.\n\n```js\nx\n```\n')).toEqual([
      '# Title',
      '\n\n',
      'A paragraph.',
      '\n\n',
      '```js\nx\n```\n',
    ])
  })

  test('returns nothing for empty text', () => {
    expect(splitBlocks('')).toEqual([])
  })

  test('joins back to the input for every prefix and suffix of a mixed document', () => {
    for (let index = 0; index <= DOCUMENT.length; index += 1) {
      const prefix = DOCUMENT.slice(0, index)
      const suffix = DOCUMENT.slice(index)
      expect(splitBlocks(prefix).join('')).toBe(prefix)
      expect(splitBlocks(suffix).join('')).toBe(suffix)
    }
  })

  test('joins back to the input with CRLF and lone CR line endings', () => {
    const text = DOCUMENT.replaceAll('\n', '\r\n') + 'a\rb\r\r\nc'
    expect(splitBlocks(text).join('')).toBe(text)
    expect(splitBlocks(text).some((block) => block.includes('\r\n'))).toBe(true)
  })

  test('joins back to the input when marked rewrites a raw', () => {
    // marked reports a trailing list item `- ` at the end of input with raw `-\n`.
    const text = 'intro\n\n- a\n- '
    const lexed = lexBlocks(text)
    expect(lexed.blocks.map((block) => block.raw).join('')).toBe(text)
    expect(lexed.blocks.at(-1)?.tokens.some((token) => token.type === 'list')).toBe(true)
  })

  test('keeps finished blocks identical while the last one streams in', () => {
    const finished = '# Title\n\nFirst paragraph.\n\n'
    const growing = ['Sec', 'Second par', 'Second paragraph.']
    for (const tail of growing) {
      const blocks = splitBlocks(finished + tail)
      expect(blocks.slice(0, -1).join('')).toBe(finished)
      expect(blocks.at(-1)).toBe(tail)
    }
  })
})

describe('lexBlocks', () => {
  test('collects reference definitions from the whole text', () => {
    const lexed = lexBlocks('[x][r]\n\n[r]: https://example.com\n')
    expect(lexed.links).toEqual({ r: { href: 'https://example.com', title: undefined } })
    expect(lexed.blocks[0]?.tokens[0]?.type).toBe('paragraph')
  })

  test('ignores extensions registered on the shared marked instance', async () => {
    const { marked } = await import('marked')
    const before = lexBlocks('plain text').blocks
    marked.use({ extensions: [{ name: 'shout', level: 'inline', start: () => 0, tokenizer: (source) => (source.startsWith('plain') ? { type: 'shout', raw: 'plain' } : undefined) }] })
    try {
      expect(lexBlocks('plain text').blocks).toEqual(before)
    } finally {
      marked.setOptions(marked.getDefaults())
    }
  })
})

describe('reuseUnchangedBlocks', () => {
  test('reuses previous block objects whose raw text did not change', () => {
    const previous = lexBlocks('# Title\n\nOne.\n\nTw')
    const next = reuseUnchangedBlocks(previous, lexBlocks('# Title\n\nOne.\n\nTwo.'))
    expect(next.blocks[0]).toBe(previous.blocks[0])
    expect(next.blocks[2]).toBe(previous.blocks[2])
    expect(next.blocks.at(-1)).not.toBe(previous.blocks.at(-1))
    expect(next.blocks.at(-1)?.raw).toBe('Two.')
  })

  test('reuses each previous block once when raws repeat', () => {
    const previous = lexBlocks('Same.\n\nSame.\n\n')
    const next = reuseUnchangedBlocks(previous, lexBlocks('Same.\n\nSame.\n\nSame.'))
    const paragraphs = next.blocks.filter((block) => block.raw.startsWith('Same.'))
    expect(new Set(paragraphs).size).toBe(paragraphs.length)
  })

  test('reuses nothing when the reference definitions change', () => {
    const previous = lexBlocks('[x][r]\n\n')
    const next = reuseUnchangedBlocks(previous, lexBlocks('[x][r]\n\n[r]: https://example.com'))
    expect(next.blocks[0]).not.toBe(previous.blocks[0])
    expect(next.blocks[0]?.tokens[0]).toMatchObject({ type: 'paragraph', tokens: [{ type: 'link', href: 'https://example.com' }] })
  })

  test('returns the next document as is when there is no previous one', () => {
    const next = lexBlocks('text')
    expect(reuseUnchangedBlocks(undefined, next)).toBe(next)
  })
})
