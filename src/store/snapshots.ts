import type { TabcodeDatabase } from './database'
import { NotFoundError, parseWith } from '../core/errors'
import { SnapshotSchema, type Snapshot } from '../core/schema'
import { write } from './transaction'

type SnapshotRows = { db: TabcodeDatabase }

/**
 * Stores a snapshot once per content, validated: its id is the hash of its manifest, so an existing row with the
 * same id is the same snapshot and is returned as it is (keeping its original creation time).
 */
export async function saveSnapshot(store: SnapshotRows, input: Snapshot): Promise<Snapshot> {
  const row = parseWith(SnapshotSchema, input, 'snapshot')
  const { db } = store
  return write(store, [db.snapshots], async () => {
    const existing = await db.snapshots.get(row.id)
    if (existing) return existing
    await db.snapshots.add(row)
    return row
  })
}

export function findSnapshot(store: SnapshotRows, id: string): Promise<Snapshot | undefined> {
  return store.db.snapshots.get(id)
}

export async function getSnapshot(store: SnapshotRows, id: string): Promise<Snapshot> {
  const snapshot = await findSnapshot(store, id)
  if (!snapshot) throw new NotFoundError('snapshot', id)
  return snapshot
}

/** The snapshots of `ids`, in order; `undefined` where one is not stored. */
export function getSnapshots(store: SnapshotRows, ids: readonly string[]): Promise<(Snapshot | undefined)[]> {
  return store.db.snapshots.bulkGet([...ids])
}
