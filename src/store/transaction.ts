import Dexie, { type Table, type Transaction } from 'dexie'
import type { EventSink, SessionEvent } from '../core/event'
import type { TabcodeDatabase } from './database'

/*
 * Every transaction the store opens is opened here (src/layers.test.ts holds the rest of src to it). A write and the
 * events that tell every tab about it go through one door, `write`, so no write path pairs them by hand: an event
 * never goes out for a change that was not stored, and never before it is.
 */

/** Tells the tabs about a change the running write makes; the event goes out once the write has committed. */
export type Announce = (event: SessionEvent) => void

/** What a write needs: the database, and where announced events go (a write that announces nothing may leave it out). */
export interface WriteContext {
  db: TabcodeDatabase
  emit?: EventSink
}

/** The events each open write has announced so far, by its transaction. */
const announced = new WeakMap<Transaction, SessionEvent[]>()

/** The events of the write running around the caller, if the caller is inside one. */
function enclosingWrite(): SessionEvent[] | undefined {
  for (let transaction: Transaction | null | undefined = Dexie.currentTransaction; transaction; transaction = transaction.parent) {
    const events = announced.get(transaction)
    if (events) return events
  }
  return undefined
}

/**
 * Runs `work` in one read-write transaction over `tables` and emits the events it announced after the transaction
 * committed, in the order announced. A write that throws or aborts stores nothing and announces nothing.
 *
 * A write inside another one (a store function that calls another inside its transaction) joins the outer
 * transaction, as Dexie's sub-transactions do: its events go out when the outer write commits, after those the
 * outer one announced before calling it, and not at all if the outer write fails after it.
 */
export async function write<T>(context: WriteContext, tables: readonly Table[], work: (announce: Announce) => Promise<T>): Promise<T> {
  const outer = enclosingWrite()
  const events: SessionEvent[] = []
  const emit = context.emit
  const announce: Announce = (event) => {
    if (!outer && !emit) throw new Error(`A write without an event sink announced ${event.type}`)
    events.push(event)
  }
  // An async scope: Dexie keeps its transaction zone across native awaits only for an async function.
  const result = await context.db.transaction('rw', tables, async (transaction) => {
    announced.set(transaction, events)
    return await work(announce)
  })
  if (outer) outer.push(...events)
  else for (const event of events) emit!(event)
  return result
}

/** Runs `work` in one read-only transaction over `tables`: reads that must see one state of the database. */
export function read<T>(context: { db: TabcodeDatabase }, tables: readonly Table[], work: () => Promise<T>): Promise<T> {
  return context.db.transaction('r', tables, async () => await work())
}
