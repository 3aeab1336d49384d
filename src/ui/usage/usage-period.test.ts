import { describe, expect, it } from 'vitest'
import { periodStart } from './usage-period'

describe('periodStart', () => {
  it('starts a period of days at midnight, local time, counting today as its last day', () => {
    const now = new Date(2026, 11, 9, 15, 30).getTime()
    expect(new Date(periodStart('7', now)!)).toEqual(new Date(2026, 11, 3))
    expect(new Date(periodStart('30', now)!)).toEqual(new Date(2026, 10, 10))
  })

  it('has no start for all time', () => {
    expect(periodStart('all', Date.now())).toBeUndefined()
  })
})
