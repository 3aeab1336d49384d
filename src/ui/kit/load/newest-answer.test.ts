import { describe, expect, it } from 'vitest'
import { createNewestAnswer } from './newest-answer'

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

describe('the newest answer', () => {
  it('takes the newest load’s answer even when an older one comes later, and settles once', async () => {
    const newest = createNewestAnswer()
    const seen: string[] = []
    const old = deferred<string>()
    const recent = deferred<string>()
    const handlers = { answer: (value: string) => seen.push(value), settled: () => seen.push('settled') }
    const first = newest.load(() => old.promise, handlers)
    const second = newest.load(() => recent.promise, handlers)
    recent.resolve('new')
    await second
    old.resolve('old')
    await first
    expect(seen).toEqual(['new', 'settled'])
  })

  it('reports only the newest load’s failure, and nothing once superseded', async () => {
    const newest = createNewestAnswer()
    const seen: string[] = []
    const failing = deferred<string>()
    const handlers = { answer: (value: string) => seen.push(value), failure: (error: unknown) => seen.push(String(error)) }
    const load = newest.load(() => failing.promise, handlers)
    newest.supersede()
    failing.reject(new Error('late'))
    await load
    expect(seen).toEqual([])
    await newest.load(() => Promise.reject(new Error('now')), handlers)
    expect(seen).toEqual(['Error: now'])
  })
})
