import { describe, expect, it } from 'vitest'
import { createPacer, nextMacrotask } from './macrotask'

describe('yielding to the event loop', () => {
  it('lets a timer that is due run before it resolves, which a microtask cannot', async () => {
    let fired = false
    setTimeout(() => (fired = true), 0)
    await Promise.resolve()
    expect(fired).toBe(false)
    for (let turn = 0; turn < 10 && !fired; turn++) await nextMacrotask()
    expect(fired).toBe(true)
  })

  it('yields only once the interval has passed since the last yield', async () => {
    let clock = 0
    const pace = createPacer(16, () => clock)
    let ticks = 0
    const counter = setInterval(() => ticks++, 0)
    try {
      clock = 10
      await pace()
      const before = ticks
      await Promise.resolve()
      expect(ticks).toBe(before)
      clock = 20
      const start = ticks
      // A yield lets the interval's callbacks run; without one they cannot, however many microtasks pass.
      for (let attempt = 0; attempt < 50 && ticks === start; attempt++) {
        clock += 16
        await pace()
      }
      expect(ticks).toBeGreaterThan(start)
    } finally {
      clearInterval(counter)
    }
  })
})
