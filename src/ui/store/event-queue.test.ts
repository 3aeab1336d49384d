import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/event'
import { makeEventQueue, UPDATE_INTERVAL_MS, type Scheduler } from './event-queue'

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

  it('applies the worker’s paced deltas at the next frame, with what else came in that frame', () => {
    const clock = clocked()
    const batches: SessionEvent[][] = []
    const queue = makeEventQueue((events) => batches.push(events), clock.schedule, { now: clock.now })
    queue.push(delta('a'))
    clock.run()
    // The outbox's next message comes a delta interval later: it shows in the next frame, not after a second wait.
    clock.advance(100)
    queue.push(delta('b'))
    expect(clock.scheduled.map((entry) => entry.delayMs)).toEqual([0])
    queue.push(status(1))
    expect(clock.scheduled).toHaveLength(1)
    clock.run()
    expect(batches.map((batch) => batch.map((event) => event.type))).toEqual([['part.delta'], ['part.delta', 'session.status']])
  })

  it('updates at most once an interval while events keep coming, and at once after a quiet spell', () => {
    const clock = clocked()
    const batches: SessionEvent[][] = []
    const queue = makeEventQueue((events) => batches.push(events), clock.schedule, { now: clock.now })
    queue.push(status(1))
    expect(clock.scheduled.map((entry) => entry.delayMs)).toEqual([0])
    clock.run()
    // A fast tool loop: the next step's events 20 ms later wait out the rest of the interval, together.
    clock.advance(20)
    queue.push(status(2))
    queue.push(status(3))
    expect(clock.scheduled.map((entry) => entry.delayMs)).toEqual([UPDATE_INTERVAL_MS - 20])
    clock.advance(UPDATE_INTERVAL_MS - 20)
    clock.run()
    expect(batches.map((batch) => batch.length)).toEqual([1, 2])
    clock.advance(UPDATE_INTERVAL_MS)
    queue.push(status(4))
    expect(clock.scheduled.map((entry) => entry.delayMs)).toEqual([0])
  })
})
