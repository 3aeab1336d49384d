import { canonicalJson } from '../core/mcp'
import type { Message, Part, SessionInfo } from '../core/schema'
import type { SyncKind } from '../core/sync-state'
import { isDefaultTitle } from '../core/title'

/*
 * Conflicting revisions of one row, merged into one (docs/sync.md, "Conflicts"). Every device that sees the same
 * revisions must write the same row, or the conflict would bounce between devices: each merge here is a pure
 * function of the rows (and the version they came from), the same whichever comes first, and `mergeRows` folds a
 * set in a fixed order. Rows carry one clock (`time.updated` for a session): "newer" decides a field both sides
 * changed.
 */

/** Orders two rows by a key, falling back to their canonical JSON so equal keys still give one answer everywhere. */
function newerOf<T>(left: T, right: T, key: (row: T) => number): [newer: T, older: T] {
  const difference = key(left) - key(right)
  if (difference !== 0) return difference > 0 ? [left, right] : [right, left]
  return canonicalJson(left) >= canonicalJson(right) ? [left, right] : [right, left]
}

/**
 * Each field of two versions, given the version both came from (`base`, when the server still has it): a field only
 * one side changed keeps that change; a field both changed, or any field without a base, comes from the newer side.
 * The `time` object is merged field by field the same way.
 */
function mergeFields<T extends object>(base: T | undefined, left: T, right: T, newer: T): T {
  const pick = (from: Record<string, unknown> | undefined, one: Record<string, unknown>, two: Record<string, unknown>, winner: Record<string, unknown>) => {
    const merged: Record<string, unknown> = {}
    for (const field of new Set([...Object.keys(one), ...Object.keys(two)])) {
      const [first, second] = [canonicalJson(one[field]), canonicalJson(two[field])]
      const value = first === second ? one[field] : from && canonicalJson(from[field]) === first ? two[field] : from && canonicalJson(from[field]) === second ? one[field] : winner[field]
      if (value !== undefined) merged[field] = value
    }
    return merged
  }
  const record = (value: unknown) => value as Record<string, unknown>
  const merged = pick(record(base), record(left), record(right), record(newer))
  const time = (row: T | undefined) => record(record(row)?.time)
  if (time(left) && time(right)) merged.time = pick(time(base), time(left), time(right), time(newer))
  return merged as T
}

/**
 * Two versions of a session header, field by field from the version they share (`mergeFields`). Beyond that: the
 * first creation time and the last update time are kept, the cost is the larger (the one that counted more turns),
 * and a title the model or the user gave beats the placeholder, so a device that had not titled the session yet
 * never undoes the title.
 */
export function mergeSession(base: SessionInfo | undefined, left: SessionInfo, right: SessionInfo): SessionInfo {
  const [newer, older] = newerOf(left, right, (row) => row.time.updated)
  const merged = mergeFields(base, left, right, newer)
  const title = isDefaultTitle(merged.title) ? [newer.title, older.title].find((title) => !isDefaultTitle(title)) ?? merged.title : merged.title
  return {
    ...merged,
    title,
    ...(newer.cost !== undefined || older.cost !== undefined ? { cost: Math.max(newer.cost ?? 0, older.cost ?? 0) } : {}),
    time: { ...merged.time, created: Math.min(newer.time.created, older.time.created), updated: Math.max(newer.time.updated, older.time.updated) },
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

/**
 * Merges a set of versions of one row that all descend from `base` (absent when the server no longer has it), in
 * canonical order so every device folds them alike.
 */
export function mergeRows(kind: SyncKind, base: unknown, rows: readonly unknown[]): unknown {
  const sorted = [...rows].sort((left, right) => (canonicalJson(left) < canonicalJson(right) ? -1 : canonicalJson(left) > canonicalJson(right) ? 1 : 0))
  if (kind === 'session') return sorted.reduce((merged, row) => mergeSession(base as SessionInfo | undefined, merged as SessionInfo, row as SessionInfo))
  if (kind === 'message' || kind === 'part') {
    const merge = kind === 'message' ? mergeMessage : mergePart
    return sorted.reduce((merged, row) => merge(merged as never, row as never))
  }
  return sorted.reduce((merged, row) => mergeLatest(merged, row))
}

/**
 * Two versions of a row that has no fields of its own to merge (a project, a file, an approval, a setting, a
 * provider): the later by its own clock (`time.updated`, a file's `modified`, an approval's `time.created`), the
 * canonical order on a tie. A blob never conflicts: its content is its name.
 */
export function mergeLatest(left: unknown, right: unknown): unknown {
  const clock = (row: unknown) => {
    const record = row as { time?: { updated?: number; created?: number }; modified?: number }
    return record.time?.updated ?? record.modified ?? record.time?.created ?? 0
  }
  return newerOf(left, right, clock)[0]
}
