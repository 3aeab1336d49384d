import { describe, expect, it } from 'vitest'
import { defaultTitle, displayTitle, isDefaultTitle } from './title'

describe('default titles', () => {
  const now = Date.UTC(2026, 10, 30, 9, 5, 7, 123)

  it('names root and child sessions with the ISO time', () => {
    expect(defaultTitle({ child: false, now })).toBe('New session - 2026-11-30T09:05:07.123Z')
    expect(defaultTitle({ child: true, now })).toBe('Child session - 2026-11-30T09:05:07.123Z')
  })

  it('recognises exactly the two default forms', () => {
    expect(isDefaultTitle(defaultTitle({ child: false, now }))).toBe(true)
    expect(isDefaultTitle(defaultTitle({ child: true, now }))).toBe(true)
    expect(isDefaultTitle('New session - 2026-11-30T09:05:07Z')).toBe(false)
    expect(isDefaultTitle('New session - 2026-11-30T09:05:07.123Z and more')).toBe(false)
    expect(isDefaultTitle('Fix the login bug')).toBe(false)
    expect(isDefaultTitle('new session - 2026-11-30T09:05:07.123Z')).toBe(false)
  })

  it('shows default titles as a readable time and leaves real titles alone', () => {
    expect(displayTitle('Fix the login bug')).toBe('Fix the login bug')
    expect(displayTitle(defaultTitle({ child: false, now }))).toMatch(/^New session · /)
    expect(displayTitle(defaultTitle({ child: true, now }))).toMatch(/^Child session · /)
  })
})
