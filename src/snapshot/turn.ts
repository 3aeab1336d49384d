import type { FileDiff, Part, Snapshot } from '../core/schema'
import { changedFiles, diffPairs, fileDiffs, loadSnapshot, type EntryPair } from './diff'
import { compareCodeUnits, type SnapshotStore } from './manifest'

/** A turn's net range: the first step's start snapshot and the last step's end snapshot. */
export interface TurnRange {
  from: string
  to: string
}

/**
 * The range of a turn from its assistant messages' parts, in order: the first step-start snapshot and the last
 * step-finish snapshot. Undefined when the turn has no such pair (no step ran, or snapshots failed).
 */
export function turnRange(parts: readonly Part[]): TurnRange | undefined {
  let from: string | undefined
  let to: string | undefined
  for (const part of parts) {
    if (part.type === 'step-start' && part.snapshot && from === undefined) from = part.snapshot
    if (part.type === 'step-finish' && part.snapshot) to = part.snapshot
  }
  return from !== undefined && to !== undefined ? { from, to } : undefined
}

/** The net file diffs of a turn (for the user message's `summary.diffs`): a file changed twice shows once. */
export function turnDiffs(input: { store: SnapshotStore } & TurnRange): Promise<FileDiff[]> {
  return fileDiffs({ store: input.store, before: input.from, after: input.to })
}

/**
 * Net diffs across a session's turns (in order): each file from the start snapshot of the first turn that changed
 * it to the end snapshot of the last turn that changed it. A file changed and then changed back is left out. Feed
 * the result to `summarize` for the session's `summary`.
 */
export async function sessionDiffs(input: { store: SnapshotStore; turns: readonly TurnRange[] }): Promise<FileDiff[]> {
  const ids = [...new Set(input.turns.flatMap((turn) => [turn.from, turn.to]))]
  const snapshots = new Map<string, Snapshot>()
  for (const snapshot of await Promise.all(ids.map((id) => loadSnapshot(input.store, id)))) snapshots.set(snapshot.id, snapshot)
  return diffPairs(input.store, netPairs(input.turns.map((turn) => ({ from: snapshots.get(turn.from)!, to: snapshots.get(turn.to)! }))))
}

/** Pure core of `sessionDiffs`: which file goes from which entry to which. */
export function netPairs(turns: ReadonlyArray<{ from: Snapshot; to: Snapshot }>): EntryPair[] {
  const first = new Map<string, string | undefined>()
  const last = new Map<string, string | undefined>()
  for (const turn of turns) {
    for (const file of changedFiles(turn.from, turn.to)) {
      if (!first.has(file)) first.set(file, turn.from.files[file])
      last.set(file, turn.to.files[file])
    }
  }
  return [...first.keys()]
    .sort(compareCodeUnits)
    .map((file) => ({ file, before: first.get(file), after: last.get(file) }))
    .filter((pair) => pair.before !== pair.after)
}
