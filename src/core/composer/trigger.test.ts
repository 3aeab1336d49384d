import { describe, expect, it } from 'vitest'
import { acceptTrigger, composerTrigger, wholeCommand } from './trigger'

describe('composerTrigger', () => {
  it('opens the mention search at an @ that starts a word, with the letters typed after it', () => {
    expect(composerTrigger('look at @src/ma', 15)).toEqual({ type: 'mention', query: 'src/ma', start: 8, end: 15 })
    expect(composerTrigger('@', 1)).toEqual({ type: 'mention', query: '', start: 0, end: 1 })
  })

  it('does not open for an email address, or once a space ends the mention', () => {
    expect(composerTrigger('mail me@example.com', 19)).toBeUndefined()
    expect(composerTrigger('see @a.ts now', 13)).toBeUndefined()
  })

  it('reads only up to the caret', () => {
    expect(composerTrigger('see @abc', 6)).toEqual({ type: 'mention', query: 'a', start: 4, end: 6 })
  })

  it('opens the palette for / at the start of the prompt until a space follows the name', () => {
    expect(composerTrigger('/', 1)).toEqual({ type: 'command', query: '', start: 0, end: 1 })
    expect(composerTrigger('/comp', 5)).toEqual({ type: 'command', query: 'comp', start: 0, end: 5 })
    expect(composerTrigger('/review src/a.ts', 16)).toBeUndefined()
    expect(composerTrigger('a /path', 7)).toBeUndefined()
  })
})

describe('acceptTrigger', () => {
  it('replaces the typed query (and the rest of that word) and puts the caret after an added space', () => {
    const text = 'look at @ma please'
    const trigger = composerTrigger(text, 11)!
    expect(acceptTrigger(text, trigger, '@src/main.ts')).toEqual({ text: 'look at @src/main.ts please', caret: 21 })
    const end = composerTrigger('@ma', 3)!
    expect(acceptTrigger('@ma', end, '@general')).toEqual({ text: '@general ', caret: 9 })
  })
})

describe('wholeCommand', () => {
  it('names the command when the prompt is only /name', () => {
    expect(wholeCommand('/compact')).toBe('compact')
    expect(wholeCommand(' /new \n')).toBe('new')
    expect(wholeCommand('/review a.ts')).toBeUndefined()
    expect(wholeCommand('hello')).toBeUndefined()
  })
})
