import { describe, expect, test } from 'vitest'
import { lexBlocks, lexGrowingText, lexWork, reuseUnchangedBlocks, splitBlocks, type LexedText } from './blocks'

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

/** The characters `work` lexed and walked (see lexWork). */
function measured(work: () => void): { lexed: number; mapped: number } {
  const before = { ...lexWork }
  work()
  return { lexed: lexWork.lexed - before.lexed, mapped: lexWork.mapped - before.mapped }
}

const paragraphs = (count: number, newline = '\n') =>
  Array.from({ length: count }, (_, index) => `Paragraph ${index} says **something** about \`code\`.`).join(newline + newline)

describe('lexBlocks cost', () => {
  test('maps the offsets of a CRLF text in one walk over it, however many blocks it has', () => {
    for (const count of [100, 1_000]) {
      const text = paragraphs(count, '\r\n')
      const { mapped } = measured(() => expect(splitBlocks(text).join('')).toBe(text))
      // Walking from the start for every block was count / 2 walks of the text.
      expect(mapped).toBeLessThanOrEqual(text.length)
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
    expect(reuseUnchangedBlocks(undefined, next)).toEqual({ ...next, kept: 0 })
    expect(reuseUnchangedBlocks(undefined, next).blocks).toBe(next.blocks)
  })
})

describe('lexGrowingText', () => {
  // Streams `text` in slices of `step` characters and checks every intermediate result against a full lex.
  function stream(text: string, step: number, compare = true) {
    let previous: LexedText | undefined
    let relexed = 0
    for (let end = step; end < text.length + step; end += step) {
      const prefix = text.slice(0, Math.min(end, text.length))
      const lexed = lexGrowingText(previous, prefix)
      if (compare) {
        const full = lexBlocks(prefix)
        expect(lexed.blocks.map((block) => block.raw)).toEqual(full.blocks.map((block) => block.raw))
        expect(JSON.stringify(lexed.blocks.map((block) => block.tokens))).toBe(JSON.stringify(full.blocks.map((block) => block.tokens)))
      }
      const kept = previous ? lexed.blocks.filter((block) => previous!.lexed.blocks.includes(block)) : []
      relexed += prefix.length - kept.reduce((sum, block) => sum + block.raw.length, 0)
      previous = { text: prefix, lexed }
    }
    return relexed
  }

  const REPLY = [
    '# Plan',
    '',
    'First we read the *grammar*, then we write the tokenizer.',
    'A second line of the same paragraph.',
    '',
    '- one',
    '- two',
    '',
    '- three, loose',
    '',
    '```ts',
    'const a = 1',
    '',
    'const b = 2',
    '```',
    '',
    '> a quote',
    'lazy continuation',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    'Setext heading',
    '==============',
    '',
    '    indented code',
    '',
    '    more of it',
    '',
    '<div>',
    'html',
    '</div>',
    '',
    'The end.',
    '',
  ].join('\n')

  test('gives exactly what a full lex gives, at every point of a stream', () => {
    for (const step of [1, 3, 7, 40]) stream(REPLY, step)
    stream(DOCUMENT.replace(/\[r\]: .*\n/, ''), 5)
    // CRLF and lone CR line endings are lexed from the restart point too, and must give the same.
    for (const step of [1, 2, 5]) stream(REPLY.replaceAll('\n', '\r\n') + 'a\rb\r\r\nc\r', step)
  })

  test('falls back to a full lex for edits and reference definitions', () => {
    const first = lexBlocks('one\n\ntwo')
    expect(lexGrowingText({ text: 'one\n\ntwo', lexed: first }, 'one\n\nthree').blocks.map((block) => block.raw)).toEqual([
      'one',
      '\n\n',
      'three',
    ])
    stream('See [x].\n\nMore text.\n\n[x]: https://example.com\n\nAfter.', 2)
    stream('one\r\n\r\ntwo\r\n', 1)
  })

  test('re-lexes in proportion to the length of the text, not its square', () => {
    const reply = (count: number) =>
      Array.from({ length: count }, (_, index) => `Paragraph ${index} says **something** about \`code\`.`).join('\n\n')
    // Frames of 64 characters: only the open paragraph (about 45 characters) is lexed again each time.
    const short = reply(200)
    const relexed = stream(short, 64, false)
    expect(relexed).toBeLessThan(short.length * 2)
    expect(stream(reply(400), 64, false) / relexed).toBeLessThan(2.2)
  })

  test('streams a CRLF reply in 4-character deltas lexing about its own length, not its square', () => {
    const lexedFor = (count: number) => {
      const text = paragraphs(count, '\r\n')
      return measured(() => stream(text, 4, false)).lexed / text.length
    }
    // Per character of the reply, what gets lexed stays the same however long it is (it was a full lex per delta).
    const short = lexedFor(100)
    expect(short).toBeLessThan(15)
    expect(lexedFor(400)).toBeLessThan(short * 1.2)
  })

  test('says how many leading blocks it kept', () => {
    const previous = lexBlocks('# Title\n\nDone.\n\nOpen')
    expect(lexGrowingText({ text: '# Title\n\nDone.\n\nOpen', lexed: previous }, '# Title\n\nDone.\n\nOpen more').kept).toBe(4)
    expect(lexGrowingText({ text: '# Title\n\nDone.\n\nOpen', lexed: previous }, '# Other').kept).toBe(0)
  })

  test('keeps the objects of the blocks it did not lex again', () => {
    const previous = lexBlocks('# Title\n\nDone.\n\nOpen')
    const next = lexGrowingText({ text: '# Title\n\nDone.\n\nOpen', lexed: previous }, '# Title\n\nDone.\n\nOpen block')
    expect(next.blocks[0]).toBe(previous.blocks[0])
    expect(next.blocks[2]).toBe(previous.blocks[2])
    expect(next.blocks.at(-1)!.raw).toBe('Open block')
  })
})
