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
