import type { TabcodeDatabase } from './database'
import type { EventSink } from '../core/event'

/** What the store functions need from the outside world; tests pass a fake clock and a recording sink. */
export interface StoreContext {
  db: TabcodeDatabase
  now: () => number
  emit: EventSink
  /** The app version that stamps new sessions. */
  version: string
}
