import { describe, expect, it } from 'vitest'
import { countIntlFormatters } from '../../../testing/count-intl'
import { createMemo, createRoot } from 'solid-js'
import { formatCalendarDay, formatDateTime, formatDuration, formatRelativeTime, isoTime, prepareDateFormats, sessionTitle } from './time'

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [420, '420 ms'],
    [4_230, '4.2 s'],
    [12_900, '12 s'],
    [60_000, '1 min'],
    [184_000, '3 min 4 s'],
    [3_600_000, '1 h'],
    [3_720_000, '1 h 2 min'],
    [-5, '0 ms'],
  ])('%d ms → %s', (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text)
  })
})

describe('formatRelativeTime', () => {
  const now = Date.UTC(2026, 10, 30, 12, 0, 0)
  const minute = 60_000
  const hour = 60 * minute
  const day = 24 * hour

  it('reads like a sidebar: just now, minutes, hours, yesterday, days', () => {
    expect(formatRelativeTime(now - 10_000, now)).toBe('just now')
    expect(formatRelativeTime(now + 5_000, now)).toBe('just now')
    expect(formatRelativeTime(now - 50_000, now)).toBe('1 min ago')
    expect(formatRelativeTime(now - 5 * minute, now)).toBe('5 min ago')
    expect(formatRelativeTime(now - 3 * hour, now)).toBe('3 h ago')
    expect(formatRelativeTime(now - 30 * hour, now)).toBe('yesterday')
    expect(formatRelativeTime(now - 4 * day, now)).toBe('4 d ago')
  })

  it('falls back to the date after a week: year first until the locale formats are made', async () => {
    const { made, result } = await countIntlFormatters('DateTimeFormat', () => formatRelativeTime(new Date(2026, 10, 10, 12).getTime(), now))
    expect(result).toBe('2026-11-10')
    expect(made).toBe(0)
  })
})

describe('isoTime', () => {
  it('is the ISO string for <time datetime>', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z')
  })
})

// The tests below run in order: the formats are made once per page, by `prepareDateFormats`.
describe('dates in the user locale', () => {
  const morning = new Date(2026, 11, 2, 6, 3).getTime()

  it('before the formats are made, writes the local date and minute without loading any locale data', async () => {
    const { made, result } = await countIntlFormatters('DateTimeFormat', () => [formatDateTime(morning), sessionTitle(`New session - ${new Date(morning).toISOString()}`)])
    expect([...result, formatCalendarDay('2026-12-02')]).toEqual(['2026-12-02 06:03', 'New session · 2026-12-02 06:03', '2026-12-02'])
    expect(made).toBe(0)
  })

  it('once made, every date on screen switches to the locale form, and no formatter is made per call', async () => {
    await createRoot(async (dispose) => {
      const shown = createMemo(() => formatDateTime(morning))
      expect(shown()).toBe('2026-12-02 06:03')
      prepareDateFormats('en-US')
      expect(shown()).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(morning))
      expect(shown()).toMatch(/^Dec 2, 2026, 6:03\sAM$/)
      const { made } = await countIntlFormatters('DateTimeFormat', () => [formatDateTime(morning), formatRelativeTime(morning, morning + 30 * 86_400_000)])
      expect(made).toBe(0)
      dispose()
    })
  })

  it('writes the usage view’s calendar days in the locale form, and leaves anything else as it is', () => {
    expect(formatCalendarDay('2026-12-02')).toBe('Dec 2, 2026')
    expect(formatCalendarDay('yesterday')).toBe('yesterday')
  })

  it('writes default titles, and dates older than a week, in the locale form', () => {
    expect(sessionTitle(`Child session - ${new Date(morning).toISOString()}`)).toMatch(/^Child session · Dec 2, 2026, 6:03\sAM$/)
    expect(sessionTitle('Fix the login bug')).toBe('Fix the login bug')
    const now = new Date(2026, 11, 30).getTime()
    expect(formatRelativeTime(morning, now)).toBe('Dec 2')
    expect(formatRelativeTime(new Date(2025, 0, 15, 12).getTime(), now)).toBe('Jan 15, 2025')
  })
})
