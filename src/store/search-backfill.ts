import type { TabcodeDatabase } from './database'
import { indexRowOf } from './search-index'
import type { SearchBackfill, SearchIndexRow } from '../core/schema'
import { write } from './transaction'

/** Where the backfill stands; undefined once every part is indexed (or the database never needed one). */
export async function backfillState(db: TabcodeDatabase): Promise<SearchBackfill | undefined> {
  return db.searchMeta.get('backfill')
}

/**
 * Indexes one batch of the parts an upgrade found, newest first, and moves the mark below them, in one transaction:
 * an interrupted backfill resumes where it stopped, and search scans only what lies below the mark. Returns
 * whether parts remain. Run by the worker in the background (`runSearchBackfill`).
 */
export async function backfillBatch(db: TabcodeDatabase, size = 500): Promise<boolean> {
  return write({ db }, [db.parts, db.searchIndex, db.searchMeta], async () => {
    const state = await db.searchMeta.get('backfill')
    if (!state) return false
    const parts = await db.parts.where(':id').below(state.below).reverse().limit(size).toArray()
    const rows = parts.map(indexRowOf).filter((row): row is SearchIndexRow => row !== undefined)
    await db.searchIndex.bulkPut(rows)
    if (parts.length < size) {
      await db.searchMeta.delete('backfill')
      return false
    }
    await db.searchMeta.put({ key: 'backfill', below: parts[parts.length - 1]!.id })
    return true
  })
}

/**
 * The whole backfill, one batch per turn of the event loop, so prompts, pages and searches go on between batches.
 * `pause` is how it yields (injected: a macrotask in the worker, nothing in tests).
 */
export async function runSearchBackfill(db: TabcodeDatabase, pause: () => Promise<void>, size?: number): Promise<void> {
  while (await backfillBatch(db, size)) await pause()
}
