import { expect, test } from 'vitest'
import { progressCount, progressValue } from './progress'

test('a count reads as done of total with its unit, bytes in their units, unknown size as nothing', () => {
  expect(progressCount({ type: 'count', unit: 'messages', done: 1_234, total: 5_678 })).toBe('1,234 of 5,678 messages')
  expect(progressCount({ type: 'bytes', done: 3 * 1024 * 1024, total: 12 * 1024 * 1024 })).toBe('3.0 MB of 12.0 MB')
  expect(progressCount({ type: 'working' })).toBe('')
  expect(progressValue({ type: 'working' })).toBeUndefined()
  expect(progressValue({ type: 'count', unit: 'files', done: 3, total: 10 })).toEqual({ value: 3, max: 10 })
  // An empty count has no bar to fill.
  expect(progressValue({ type: 'count', unit: 'files', done: 0, total: 0 })).toBeUndefined()
})
