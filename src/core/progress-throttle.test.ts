import { expect, test } from 'vitest'
import type { Progress } from './progress'
import { throttleProgress } from './progress-throttle'

test('passes the first report, then at most one per interval, and always the last of a count', () => {
  let now = 0
  const seen: Progress[] = []
  const report = throttleProgress((progress) => seen.push(progress), { interval: 100, now: () => now })
  report({ type: 'working' })
  report({ type: 'working' })
  for (let done = 0; done <= 1_000; done += 10) {
    now += 5
    report({ type: 'count', unit: 'messages', done, total: 1_000 })
  }
  // 101 counts over 505 ms: the first, one per 100 ms after it, and the end.
  expect(seen[0]).toEqual({ type: 'working' })
  const done = seen.slice(1).map((progress) => (progress.type === 'count' ? progress.done : -1))
  expect(done).toEqual([0, 200, 400, 600, 800, 1_000])
})

test('a new unit passes at once, however soon', () => {
  const seen: Progress[] = []
  const report = throttleProgress((progress) => seen.push(progress), { interval: 100, now: () => 0 })
  report({ type: 'count', unit: 'messages', done: 1, total: 10 })
  report({ type: 'count', unit: 'messages', done: 2, total: 10 })
  report({ type: 'count', unit: 'files', done: 1, total: 10 })
  expect(seen.map((progress) => progress.type === 'count' && progress.unit)).toEqual(['messages', 'files'])
})
