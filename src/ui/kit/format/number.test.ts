import { describe, expect, it, vi } from 'vitest'
import { countIntlFormatters } from '../../../testing/count-intl'
import { formatNumber } from './number'

describe('formatNumber', () => {
  it('groups thousands as en-US does, whatever the page locale', () => {
    expect(formatNumber(0)).toBe('0')
    expect(formatNumber(950)).toBe('950')
    expect(formatNumber(12_345)).toBe('12,345')
    expect(formatNumber(1_234_567)).toBe('1,234,567')
    expect(formatNumber(-4_200)).toBe('-4,200')
    expect(formatNumber(1234.5)).toBe('1,234.5')
  })
})

describe('formatNumber without locale data', () => {
  it('writes integers exactly as Intl does, and loads no formatter for them (a first visit pays nothing)', async () => {
    const reference = new Intl.NumberFormat('en-US')
    const { made } = await countIntlFormatters('NumberFormat', async () => {
      vi.resetModules()
      const { formatNumber: fresh } = await import('./number')
      for (const value of [1, 7, 99, 100, 999, 1_000, 1_001, 65_536, 100_000, 999_999, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER, -1, -999, -1_000, -98_765_432]) {
        expect(fresh(value)).toBe(reference.format(value))
      }
      return fresh
    })
    expect(made).toBe(0)
    const fraction = await countIntlFormatters('NumberFormat', async () => (await import('./number')).formatNumber(0.25))
    expect(fraction.result).toBe('0.25')
    expect(fraction.made).toBe(1)
  })
})
