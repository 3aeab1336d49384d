import { describe, expect, it } from 'vitest'
import { canSend, deliveryFor, escapeStops, promptKeyAction, type PromptKey } from './prompt-keys'

const press = (key: string, extra: Partial<PromptKey> = {}): PromptKey => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  isComposing: false,
  ...extra,
})

describe('promptKeyAction', () => {
  it('sends on Enter and leaves Shift+Enter to make a new line', () => {
    expect(promptKeyAction(press('Enter'), false)).toBe('send')
    expect(promptKeyAction(press('Enter'), true)).toBe('send')
    expect(promptKeyAction(press('Enter', { shiftKey: true }), false)).toBeUndefined()
    expect(promptKeyAction(press('Enter', { ctrlKey: true }), false)).toBe('send')
  })

  it('queues on Alt+Enter only while a turn runs', () => {
    expect(promptKeyAction(press('Enter', { altKey: true }), true)).toBe('queue')
    expect(promptKeyAction(press('Enter', { altKey: true }), false)).toBe('send')
  })

  it('leaves other keys and input-method composition alone', () => {
    expect(promptKeyAction(press('a'), false)).toBeUndefined()
    expect(promptKeyAction(press('Enter', { isComposing: true }), false)).toBeUndefined()
  })
})

describe('deliveryFor', () => {
  it('sends plainly when idle, whichever button', () => {
    expect(deliveryFor('send', false)).toBeUndefined()
    expect(deliveryFor('queue', false)).toBeUndefined()
  })

  it('steers or queues while a turn runs', () => {
    expect(deliveryFor('send', true)).toBe('steer')
    expect(deliveryFor('queue', true)).toBe('queue')
  })
})

describe('canSend', () => {
  it('needs some non-blank text', () => {
    expect(canSend('')).toBe(false)
    expect(canSend('  \n ')).toBe(false)
    expect(canSend('go')).toBe(true)
  })
})

describe('escapeStops', () => {
  const escape = { key: 'Escape', isComposing: false, defaultPrevented: false, dialogOpen: false, running: true }
  it('stops a running turn', () => {
    expect(escapeStops(escape)).toBe(true)
  })

  it('does nothing when idle, behind a dialog, while composing, or when something closer used the key', () => {
    expect(escapeStops({ ...escape, running: false })).toBe(false)
    expect(escapeStops({ ...escape, dialogOpen: true })).toBe(false)
    expect(escapeStops({ ...escape, isComposing: true })).toBe(false)
    expect(escapeStops({ ...escape, defaultPrevented: true })).toBe(false)
    expect(escapeStops({ ...escape, key: 'Enter' })).toBe(false)
  })
})
