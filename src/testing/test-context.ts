import 'fake-indexeddb/auto'
import { TabcodeDatabase } from '../store/database'
import type { StoreContext } from '../store/context'
import type { SessionEvent } from '../core/event'

/** A store context over a fresh fake IndexedDB, a controllable clock and a recording event sink (tests only). */
export function makeTestContext(start = Date.UTC(2026, 10, 30, 12, 0, 0)) {
  let time = start
  const events: SessionEvent[] = []
  const db = new TabcodeDatabase(`test-${crypto.randomUUID()}`)
  const context: StoreContext = {
    db,
    now: () => time,
    emit: (event) => events.push(event),
    version: 'test',
  }
  return {
    context,
    db,
    events,
    advance(milliseconds = 1) {
      time += milliseconds
      return time
    },
  }
}
