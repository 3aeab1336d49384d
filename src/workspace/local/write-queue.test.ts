import { describe, expect, it } from 'vitest'
import { createWriteQueue } from './write-queue'

describe('createWriteQueue', () => {
  it('runs tasks one at a time in call order, and a failure does not stop the next task', async () => {
    const enqueue = createWriteQueue()
    const events: string[] = []
    const task = (name: string, fail = false) => async () => {
      events.push(`start ${name}`)
      await Promise.resolve()
      events.push(`end ${name}`)
      if (fail) throw new Error(name)
      return name
    }
    const results = await Promise.allSettled([enqueue(task('a')), enqueue(task('b', true)), enqueue(task('c'))])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  })
})
