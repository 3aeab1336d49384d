import { describe, expect, it } from 'vitest'
import { highlight } from './highlight'

describe('highlight', () => {
  it('splits a snippet around its match', () => {
    expect(highlight('…fix the parser today', { start: 9, length: 6 })).toEqual({ before: '…fix the ', match: 'parser', after: ' today' })
  })

  it('highlights nothing for a match outside the snippet instead of failing', () => {
    expect(highlight('short', { start: 40, length: 3 })).toEqual({ before: 'short', match: '', after: '' })
    expect(highlight('short', { start: -2, length: 2 })).toEqual({ before: '', match: 'sh', after: 'ort' })
  })

  it('shortens a long lead at a word so the match stays near the start of the row', () => {
    const snippet = 'we talked for a long while about many things before the lexer came up'
    const at = snippet.indexOf('lexer')
    const parts = highlight(snippet, { start: at, length: 5 }, { lead: 20 })
    expect(parts.match).toBe('lexer')
    expect(parts.before.startsWith('…')).toBe(true)
    expect(parts.before.length).toBeLessThanOrEqual(21)
    expect(parts.before.endsWith('before the ')).toBe(true)
    // Cut at a word boundary: what follows the ellipsis starts a word of the original.
    expect(snippet).toContain(` ${parts.before.slice(1)}`)
  })
})
