import { describe, expect, it } from 'vitest'
import { countIntlFormatters } from '../../../testing/count-intl'
import { formatDateTime, formatDuration, formatRelativeTime, isoTime } from './time'

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

  it('falls back to the date after a week, with the year only when it differs', () => {
    expect(formatRelativeTime(now - 20 * day, now, 'en-US')).toBe('Nov 10')
    expect(formatRelativeTime(Date.UTC(2025, 0, 15, 12), now, 'en-US')).toBe('Jan 15, 2025')
  })
})

describe('isoTime', () => {
  it('is the ISO string for <time datetime>', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z')
  })
})

describe('formatDateTime', () => {
  it('writes the local date and minute without loading any locale data', async () => {
    const { made, result } = await countIntlFormatters('DateTimeFormat', () => formatDateTime(new Date(2026, 11, 2, 6, 3).getTime()))
    expect(result).toBe('2026-12-02 06:03')
    expect(made).toBe(0)
  })
})
