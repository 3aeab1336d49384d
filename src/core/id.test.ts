import { beforeEach, describe, expect, it } from 'vitest'
import { hasPrefix, idPattern, makeIdGenerator, timestampOf } from './id'

let ascending: ReturnType<typeof makeIdGenerator>['ascending']
let descending: ReturnType<typeof makeIdGenerator>['descending']
beforeEach(() => {
  ;({ ascending, descending } = makeIdGenerator())
})

describe('ids', () => {
  it('keeps 10,000 ascending ids made in one millisecond in creation order', () => {
    const now = Date.UTC(2026, 0, 1)
    const ids = Array.from({ length: 10_000 }, () => ascending('message', now))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(10_000)
  })

  it('reverses that order for descending ids, so the newest session sorts first', () => {
    const now = Date.UTC(2026, 0, 1)
    const ids = Array.from({ length: 10_000 }, () => descending('session', now))
    expect([...ids].sort()).toEqual([...ids].reverse())
  })

  it('orders across milliseconds and survives a clock that steps back', () => {
    const first = ascending('part', 2_000)
    const second = ascending('part', 1_000)
    const third = ascending('part', 3_000)
    expect(first < second && second < third).toBe(true)
  })

  it('stays ordered past the millisecond counter by borrowing the next millisecond', () => {
    const now = 5_000_000
    const ids = Array.from({ length: 70_000 }, () => ascending('part', now))
    expect([...ids].sort()).toEqual(ids)
  })

  it('keeps the full timestamp width, so ids from far apart years still sort by time', () => {
    const early = ascending('message', Date.UTC(2026, 0, 1))
    const late = ascending('message', Date.UTC(2126, 0, 1))
    expect(early < late).toBe(true)
    expect(timestampOf(late)).toBe(Date.UTC(2126, 0, 1))
  })

  it('carries its prefix and decodes its time both ways', () => {
    const now = Date.UTC(2026, 10, 30, 8, 30)
    const message = ascending('message', now + 10)
    const session = descending('session', now + 20)
    expect(hasPrefix(message, 'message')).toBe(true)
    expect(message).toMatch(idPattern('message'))
    expect(session).toMatch(idPattern('session'))
    expect(timestampOf(message)).toBe(now + 10)
    expect(timestampOf(session, { descending: true })).toBe(now + 20)
  })

  it('refuses to decode something that is not an id', () => {
    expect(() => timestampOf('msg_short')).toThrow(/Not a tabcode id/)
  })
})
