import { describe, expect, it } from 'vitest'
import { nextThemeChoice, parseThemeChoice, resolveTheme } from './theme'

describe('the theme choice', () => {
  it('reads what was stored, and anything else as the system theme', () => {
    expect(parseThemeChoice('dark')).toBe('dark')
    expect(parseThemeChoice('light')).toBe('light')
    expect(parseThemeChoice(null)).toBe('system')
    expect(parseThemeChoice('purple')).toBe('system')
  })

  it('follows the system only when asked to', () => {
    expect(resolveTheme('system', true)).toBe('dark')
    expect(resolveTheme('system', false)).toBe('light')
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('cycles system, light, dark', () => {
    expect([nextThemeChoice('system'), nextThemeChoice('light'), nextThemeChoice('dark')]).toEqual(['light', 'dark', 'system'])
  })
})
