import { describe, expect, it } from 'vitest'
import { describeStatus, isRunning, msUntilNextTick, secondsUntil } from './session-status-text'

describe('secondsUntil', () => {
  it('rounds up and never goes below zero', () => {
    expect(secondsUntil(10_000, 5_000)).toBe(5)
    expect(secondsUntil(10_000, 9_001)).toBe(1)
    expect(secondsUntil(10_000, 9_999)).toBe(1)
    expect(secondsUntil(10_000, 10_000)).toBe(0)
    expect(secondsUntil(10_000, 12_000)).toBe(0)
  })
})

describe('describeStatus', () => {
  it('says nothing when idle or unknown', () => {
    expect(describeStatus(undefined, 0)).toBe('')
    expect(describeStatus({ type: 'idle' }, 0)).toBe('')
  })

  it('says the session is working while busy', () => {
    expect(describeStatus({ type: 'busy' }, 0)).toBe('Working…')
  })

  it('counts down to the next attempt', () => {
    const status = { type: 'retry', attempt: 2, message: 'Rate limited', next: 20_000 } as const
    expect(describeStatus(status, 15_000)).toBe('Retrying (attempt 2) in 5 s: Rate limited')
    expect(describeStatus(status, 18_500)).toBe('Retrying (attempt 2) in 2 s: Rate limited')
    expect(describeStatus(status, 20_000)).toBe('Retrying (attempt 2) now: Rate limited')
  })
})

describe('isRunning', () => {
  it('is true while busy or waiting to retry', () => {
    expect(isRunning({ type: 'busy' })).toBe(true)
    expect(isRunning({ type: 'retry', attempt: 1, message: 'x', next: 0 })).toBe(true)
    expect(isRunning({ type: 'idle' })).toBe(false)
    expect(isRunning(undefined)).toBe(false)
  })
})

describe('msUntilNextTick', () => {
  it('wakes just after the count changes', () => {
    expect(msUntilNextTick(10_000, 7_300)).toBe(705)
    expect(msUntilNextTick(10_000, 7_000)).toBe(1005)
    expect(msUntilNextTick(10_000, 11_000)).toBe(1000)
  })
})
