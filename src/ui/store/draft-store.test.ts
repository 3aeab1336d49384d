import { describe, expect, it } from 'vitest'
import { makeDraftStore, textAfterSend } from './draft-store'

describe('makeDraftStore', () => {
  it('keeps one draft per session', () => {
    const drafts = makeDraftStore()
    drafts.update('ses_a', { text: 'hello' })
    drafts.update('ses_b', { text: 'other' })
    drafts.update('ses_a', { agent: 'build' })
    expect(drafts.get('ses_a')).toEqual({ text: 'hello', agent: 'build' })
    expect(drafts.get('ses_b')).toEqual({ text: 'other' })
    expect(drafts.get('ses_c')).toEqual({ text: '' })
  })

  it('keeps the model choice when the text is cleared, and forgets empty drafts', () => {
    const drafts = makeDraftStore()
    const model = { providerID: 'p', modelID: 'm' }
    drafts.update('ses_a', { text: 'hi', model })
    expect(drafts.update('ses_a', { text: '' })).toEqual({ text: '', model })
    drafts.update('ses_b', { text: 'x' })
    drafts.update('ses_b', { text: '' })
    expect(drafts.get('ses_b')).toEqual({ text: '' })
    drafts.forget('ses_a')
    expect(drafts.get('ses_a')).toEqual({ text: '' })
  })

  it('never hands out a shared object that a caller could change', () => {
    const drafts = makeDraftStore()
    expect(Object.isFrozen(drafts.get('ses_x'))).toBe(true)
  })
})

describe('textAfterSend', () => {
  it('empties the box when nothing changed while sending', () => {
    expect(textAfterSend('fix the bug', 'fix the bug')).toBe('')
  })

  it('keeps what was typed after the sent text', () => {
    expect(textAfterSend('fix the bug\nand the tests', 'fix the bug')).toBe('and the tests')
  })

  it('keeps a rewritten text whole', () => {
    expect(textAfterSend('fix the other bug', 'fix the bug')).toBe('fix the other bug')
    expect(textAfterSend('', 'fix the bug')).toBe('')
  })
})

describe('makeDraftStore fill', () => {
  it('replaces the text, keeps the choices, and tells a listening prompt box', () => {
    const drafts = makeDraftStore()
    drafts.update('ses_a', { text: 'half typed', agent: 'plan' })
    drafts.fill('ses_a', 'the reverted prompt')
    expect(drafts.get('ses_a')).toEqual({ text: 'the reverted prompt', agent: 'plan' })
    expect(drafts.filled()).toEqual({ sessionID: 'ses_a', text: 'the reverted prompt' })
  })
})
