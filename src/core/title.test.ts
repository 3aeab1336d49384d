import { describe, expect, it } from 'vitest'
import { countIntlFormatters } from '../testing/count-intl'
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
    const local = new Date(now)
    const two = (value: number) => String(value).padStart(2, '0')
    const minute = `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())} ${two(local.getHours())}:${two(local.getMinutes())}`
    expect(displayTitle(defaultTitle({ child: false, now }))).toBe(`New session · ${minute}`)
    expect(displayTitle(defaultTitle({ child: true, now }))).toBe(`Child session · ${minute}`)
  })

  it('shows a default title without loading any locale data (a first visit\'s New session stays a short task)', async () => {
    const { made } = await countIntlFormatters('DateTimeFormat', () => displayTitle(defaultTitle({ child: false, now: now + 60_000 })))
    expect(made).toBe(0)
  })
})
