import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/event'
import { makeEventQueue, type Scheduler } from './event-queue'

function manualScheduler() {
  const scheduled: (() => void)[] = []
  const schedule: Scheduler = (flush) => {
    scheduled.push(flush)
    return () => scheduled.splice(scheduled.indexOf(flush), 1)
  }
  return { schedule, runFrame: () => scheduled.splice(0).forEach((flush) => flush()), scheduled }
}

const status = (index: number): SessionEvent => ({ type: 'session.status', sessionID: `ses_${index}`, status: { type: 'busy' } })

describe('event queue', () => {
  it('hands a burst of events over in one batch per frame, in order', () => {
    const frames = manualScheduler()
    const batches: SessionEvent[][] = []
    const queue = makeEventQueue((events) => batches.push(events), frames.schedule)
    for (let index = 0; index < 5000; index++) queue.push(status(index))
    expect(batches).toEqual([])
    expect(frames.scheduled).toHaveLength(1)
    frames.runFrame()
    expect(batches).toHaveLength(1)
    expect(batches[0]!.map((event) => (event as { sessionID: string }).sessionID)).toEqual(
      Array.from({ length: 5000 }, (_, index) => `ses_${index}`),
    )
    queue.push(status(1))
    frames.runFrame()
    expect(batches).toHaveLength(2)
  })

  it('flushes on demand and forgets everything when disposed', () => {
    const frames = manualScheduler()
    const batches: SessionEvent[][] = []
    const queue = makeEventQueue((events) => batches.push(events), frames.schedule)
    queue.push(status(1))
    queue.flush()
    expect(batches).toHaveLength(1)
    expect(frames.scheduled).toHaveLength(0)
    queue.push(status(2))
    queue.dispose()
    frames.runFrame()
    expect(batches).toHaveLength(1)
  })
})

describe('event queue while text streams', () => {
  const delta = (text: string): SessionEvent => ({ type: 'part.delta', sessionID: 'ses_1', messageID: 'msg_1', partID: 'prt_1', delta: text }) as SessionEvent

  /** A scheduler that records each flush's delay, and a clock the test moves. */
  function clocked() {
    let time = 0
    const scheduled: { flush: () => void; delayMs: number }[] = []
    const schedule: Scheduler = (flush, delayMs = 0) => {
      const entry = { flush, delayMs }
      scheduled.push(entry)
      return () => scheduled.splice(scheduled.indexOf(entry), 1)
    }
    return { schedule, now: () => time, advance: (ms: number) => (time += ms), scheduled, run: () => scheduled.splice(0).forEach((entry) => entry.flush()) }
  }

  it('applies deltas at the next frame like any other event (the worker paces them), with what else came in that frame', () => {
    const clock = clocked()
    const batches: SessionEvent[][] = []
    const queue = makeEventQueue((events) => batches.push(events), clock.schedule)
    queue.push(delta('a'))
    clock.run()
    clock.advance(16)
    // The outbox's next message, soon after the last: it shows in the next frame, not after a second interval.
    queue.push(delta('b'))
    expect(clock.scheduled.map((entry) => entry.delayMs)).toEqual([0])
    queue.push(status(1))
    expect(clock.scheduled).toHaveLength(1)
    clock.run()
    expect(batches.map((batch) => batch.map((event) => event.type))).toEqual([['part.delta'], ['part.delta', 'session.status']])
  })
})
