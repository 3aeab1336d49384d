import { describe, expect, it } from 'vitest'
import { describeFailure, errorDetail, failureFromConnectError } from './boot-failure'

describe('describeFailure', () => {
  it('explains storage problems with the worker\'s own words and offers a reset only for broken storage', () => {
    const corrupt = describeFailure({
      kind: 'storage',
      problem: { type: 'corrupt', message: 'could not read', detail: 'UnknownError: boom' },
    })
    expect(corrupt).toEqual({
      heading: "tabcode can't open its storage",
      message: 'could not read',
      detail: 'UnknownError: boom',
      canReset: true,
    })
    expect(describeFailure({ kind: 'storage', problem: { type: 'unavailable', message: 'no', detail: 'x' } }).canReset).toBe(true)
    for (const type of ['blocked', 'newer-version'] as const) {
      const described = describeFailure({ kind: 'storage', problem: { type, message: type } })
      expect(described.canReset).toBe(false)
      expect(described.detail).toBeUndefined()
    }
  })

  it('never offers to delete data when the worker is the problem', () => {
    for (const kind of ['protocol', 'worker', 'crash'] as const) {
      const described = describeFailure({ kind, detail: 'Error: x' })
      expect(described.canReset).toBe(false)
      expect(described.detail).toBe('Error: x')
      expect(described.heading).toBe("tabcode couldn't start")
    }
  })
})

describe('failureFromConnectError', () => {
  it('tells a protocol mismatch from a worker that did not load', () => {
    const mismatch = Object.assign(new Error('protocol 1 vs 2'), { name: 'ProtocolMismatchError' })
    expect(failureFromConnectError(mismatch).kind).toBe('protocol')
    expect(failureFromConnectError(new Error('script 404')).kind).toBe('worker')
    expect(failureFromConnectError('weird').kind).toBe('worker')
  })
})

describe('errorDetail', () => {
  it('gives name, message and stack without repeating the first line', () => {
    const error = new TypeError('bad')
    error.stack = 'TypeError: bad\n    at somewhere'
    expect(errorDetail(error)).toBe('TypeError: bad\n    at somewhere')
    error.stack = 'somewhere@file.js:1:2'
    expect(errorDetail(error)).toBe('TypeError: bad\nsomewhere@file.js:1:2')
  })

  it('reads error-shaped objects and anything else', () => {
    expect(errorDetail({ name: 'NotFoundError', message: 'gone' })).toBe('NotFoundError: gone')
    expect(errorDetail(42)).toBe('42')
  })
})
