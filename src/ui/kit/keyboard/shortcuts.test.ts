import { describe, expect, it } from 'vitest'
import { keysFor, matchShortcut, SHORTCUTS, type KeyPress } from './shortcuts'

const press = (patch: Partial<KeyPress>): KeyPress => ({
  key: '',
  code: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  typing: false,
  ...patch,
})

describe('matchShortcut', () => {
  it('maps Alt shortcuts by physical key, even while typing', () => {
    expect(matchShortcut(press({ altKey: true, code: 'KeyN', key: '˜', typing: true }))).toBe('new-session')
    expect(matchShortcut(press({ altKey: true, code: 'KeyL', key: 'l' }))).toBe('focus-prompt')
    expect(matchShortcut(press({ altKey: true, key: 'ArrowUp', code: 'ArrowUp', typing: true }))).toBe('previous-session')
    expect(matchShortcut(press({ altKey: true, key: 'ArrowDown', code: 'ArrowDown' }))).toBe('next-session')
  })

  it('takes / and ? only outside text fields', () => {
    expect(matchShortcut(press({ key: '/', code: 'Slash' }))).toBe('focus-prompt')
    expect(matchShortcut(press({ key: '/', code: 'Slash', typing: true }))).toBeUndefined()
    expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true }))).toBe('show-shortcuts')
    expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true, typing: true }))).toBeUndefined()
  })

  it('leaves browser and system combinations alone', () => {
    expect(matchShortcut(press({ ctrlKey: true, code: 'KeyL', key: 'l' }))).toBeUndefined()
    expect(matchShortcut(press({ metaKey: true, altKey: true, code: 'KeyN', key: 'n' }))).toBeUndefined()
    expect(matchShortcut(press({ altKey: true, shiftKey: true, code: 'KeyN', key: 'N' }))).toBeUndefined()
    expect(matchShortcut(press({ key: 'n', code: 'KeyN' }))).toBeUndefined()
  })

  it('leaves Escape to the session view and the dialogs', () => {
    expect(matchShortcut(press({ key: 'Escape', code: 'Escape' }))).toBeUndefined()
  })
})

describe('SHORTCUTS', () => {
  it('declares aria-keyshortcuts values for every action', () => {
    expect(SHORTCUTS.map((shortcut) => shortcut.action).sort()).toEqual(
      ['focus-prompt', 'new-session', 'next-session', 'previous-session', 'show-shortcuts', 'stop'].sort(),
    )
    expect(keysFor('stop')).toBe('Escape')
    expect(keysFor('new-session')).toBe('Alt+N')
    expect(keysFor('focus-prompt')).toBe('Alt+L /')
  })
})
