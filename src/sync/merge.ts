import { canonicalJson } from '../core/mcp'
import type { Message, Part, SessionInfo } from '../core/schema'
import type { SyncKind } from '../core/sync-state'
import { isDefaultTitle } from '../core/title'

/*
 * Conflicting revisions of one row, merged into one (docs/sync.md, "Conflicts"). Every device that sees the same
 * revisions must write the same row, or the conflict would bounce between devices: each merge here is a pure
 * function of the two rows alone, the same whichever comes first, and `mergeRows` folds a set in a fixed order.
 * Rows carry one clock (`time.updated` for a session), so "newer" decides the fields no rule below covers.
 */

/** Orders two rows by a key, falling back to their canonical JSON so equal keys still give one answer everywhere. */
function newerOf<T>(left: T, right: T, key: (row: T) => number): [newer: T, older: T] {
  const difference = key(left) - key(right)
  if (difference !== 0) return difference > 0 ? [left, right] : [right, left]
  return canonicalJson(left) >= canonicalJson(right) ? [left, right] : [right, left]
}

/**
 * Two versions of a session header: the newer one's fields, except that a title the model or the user gave beats the
 * placeholder (a device that had not titled the session yet must not undo the title), the first creation and last
 * update time are kept, and the cost is the larger (the one that counted more turns).
 */
export function mergeSession(left: SessionInfo, right: SessionInfo): SessionInfo {
  const [newer, older] = newerOf(left, right, (row) => row.time.updated)
  const title = isDefaultTitle(newer.title) && !isDefaultTitle(older.title) ? older.title : newer.title
  const cost = Math.max(newer.cost ?? 0, older.cost ?? 0)
  return {
    ...newer,
    title,
    ...(newer.cost !== undefined || older.cost !== undefined ? { cost } : {}),
    time: { ...newer.time, created: Math.min(newer.time.created, older.time.created), updated: Math.max(newer.time.updated, older.time.updated) },
  }
}

/** Two versions of a message: the completed one, the later completed of two, its summary kept if only the other had one. */
export function mergeMessage(left: Message, right: Message): Message {
  const completed = (row: Message) => (row.role === 'assistant' ? (row.time.completed ?? -1) : 0)
  const [newer, older] = newerOf(left, right, completed)
  if (newer.role === 'user' && older.role === 'user' && newer.summary === undefined && older.summary !== undefined) return { ...newer, summary: older.summary }
  return newer
}

/**
 * Two versions of a part. A terminal part never changes, so two versions differ only when a compaction was undone on
 * one device: the undone one wins, as the later act. Otherwise the canonical order picks one, the same everywhere.
 */
export function mergePart(left: Part, right: Part): Part {
  const undone = (row: Part) => (row.type === 'compaction' ? (row.undone ?? -1) : 0)
  return newerOf(left, right, undone)[0]
}

/** Merges a set of versions of one row, in canonical order so every device folds them alike. */
export function mergeRows(kind: SyncKind, rows: readonly unknown[]): unknown {
  const sorted = [...rows].sort((left, right) => (canonicalJson(left) < canonicalJson(right) ? -1 : canonicalJson(left) > canonicalJson(right) ? 1 : 0))
  const merge = { session: mergeSession, message: mergeMessage, part: mergePart }[kind] as (left: unknown, right: unknown) => unknown
  return sorted.reduce((merged, row) => merge(merged, row))
}
