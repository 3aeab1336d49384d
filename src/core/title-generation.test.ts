import { describe, expect, it } from 'vitest'
import { cleanTitle, firstRealUserMessage } from './title-generation'
import { makeBuilders } from '../testing/fixture-builders'

describe('generated titles', () => {
  it('takes the first non-empty line without thinking blocks', () => {
    expect(cleanTitle('<think>the user wants\na title</think>\n\n  Fix the login bug  \nmore')).toBe('Fix the login bug')
    expect(cleanTitle('"Quoted title"')).toBe('Quoted title')
    expect(cleanTitle('<think>never closed')).toBeUndefined()
    expect(cleanTitle('   \n  ')).toBeUndefined()
  })

  it('cuts long titles to 100 characters', () => {
    const title = cleanTitle('x'.repeat(150))!
    expect(title).toHaveLength(100)
    expect(title.endsWith('...')).toBe(true)
  })

  it('only titles a conversation with exactly one real user message', () => {
    const build = makeBuilders()
    const session = build.session()
    const first = build.user(session.id)
    const synthetic = build.user(session.id)
    const history = [
      { info: first, parts: [build.text(first, 'hello')] },
      { info: synthetic, parts: [{ ...build.text(synthetic, 'auto'), synthetic: true }] },
    ]
    expect(firstRealUserMessage(history)?.info.id).toBe(first.id)
    const second = build.user(session.id)
    expect(firstRealUserMessage([...history, { info: second, parts: [build.text(second, 'again')] }])).toBeUndefined()
  })
})
