import { describe, expect, it } from 'vitest'
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
