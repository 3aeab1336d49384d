import { NotFoundError } from '../core/errors'
import { getBlobs } from '../store/blobs'
import { getSnapshot } from '../store/snapshots'
import type { Blob, FileDiff, Snapshot } from '../core/schema'
import { lineChangeCounts, splitLines, unifiedDiff } from '../core/diff'
import { textOf } from '../core/text-sniff'
import { compareCodeUnits, isContentHash, type SnapshotRef, type SnapshotStore } from './manifest'

/** Files larger than this (either side) get line counts but no patch. */
export const MAX_PATCH_BYTES = 512 * 1024

/** The paths whose entry differs between two snapshots (added, deleted or changed), in path order. */
export function changedFiles(before: Snapshot, after: Snapshot): string[] {
  const paths = new Set([...Object.keys(before.files), ...Object.keys(after.files)])
  return [...paths].filter((path) => before.files[path] !== after.files[path]).sort(compareCodeUnits)
}

/** One file between two states: each side a manifest entry (content hash or large-file marker), or absent. */
export interface EntryPair {
  file: string
  before: string | undefined
  after: string | undefined
}

/** A side of a pair as the pure diff sees it. */
export type FileContent = { type: 'bytes'; data: Uint8Array } | { type: 'large' }

export async function loadSnapshot(store: SnapshotStore, ref: SnapshotRef): Promise<Snapshot> {
  if (typeof ref !== 'string') return ref
  return getSnapshot(store, ref)
}

/** Diffs of every file changed between two snapshots, with status, line counts and (when sensible) a patch. */
export async function fileDiffs(input: { store: SnapshotStore; before: SnapshotRef; after: SnapshotRef }): Promise<FileDiff[]> {
  const [before, after] = await Promise.all([loadSnapshot(input.store, input.before), loadSnapshot(input.store, input.after)])
  const pairs = changedFiles(before, after).map((file) => ({ file, before: before.files[file], after: after.files[file] }))
  return diffPairs(input.store, pairs)
}

const LOAD_BATCH = 16

/** Loads the blobs of each pair (a few at a time, so a large change set is not all in memory) and diffs them. */
export async function diffPairs(store: SnapshotStore, pairs: readonly EntryPair[]): Promise<FileDiff[]> {
  const diffs: FileDiff[] = []
  for (let start = 0; start < pairs.length; start += LOAD_BATCH) {
    const batch = pairs.slice(start, start + LOAD_BATCH)
    const hashes = [...new Set(batch.flatMap((pair) => [pair.before, pair.after]).filter(isStoredHash))]
    const blobs = new Map<string, Blob>()
    for (const blob of await getBlobs(store, hashes)) if (blob) blobs.set(blob.hash, blob)
    const content = (entry: string | undefined): FileContent | undefined => {
      if (entry === undefined) return undefined
      if (!isContentHash(entry)) return { type: 'large' }
      const blob = blobs.get(entry)
      if (!blob) throw new NotFoundError('blob', entry)
      return { type: 'bytes', data: blob.data }
    }
    for (const pair of batch) diffs.push(diffFile(pair.file, content(pair.before), content(pair.after)))
  }
  return diffs
}

function isStoredHash(entry: string | undefined): entry is string {
  return entry !== undefined && isContentHash(entry)
}

/**
 * The diff of one file. Binary files and files recorded only by size get a status and zero counts; text beyond
 * `MAX_PATCH_BYTES` gets counts without a patch.
 */
export function diffFile(file: string, before: FileContent | undefined, after: FileContent | undefined): FileDiff {
  const status = before === undefined ? 'added' : after === undefined ? 'deleted' : 'modified'
  const oldText = before && decode(before)
  const newText = after && decode(after)
  if (oldText === null || newText === null) return { file, status, additions: 0, deletions: 0 }
  const tooLarge = [before, after].some((side) => side?.type === 'bytes' && side.data.length > MAX_PATCH_BYTES)
  if (tooLarge) return { file, status, ...lineChangeCounts(splitLines(oldText ?? ''), splitLines(newText ?? '')) }
  return { file, status, ...unifiedDiff({ file, before: oldText, after: newText }) }
}

/** The text of a side, or null when it has no diffable text (binary, invalid UTF-8, or recorded only by size). */
export function decode(content: FileContent): string | null {
  return content.type === 'large' ? null : textOf(content.data)
}

