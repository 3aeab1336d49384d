import type { StoreContext } from '../store/context'
import type { Snapshot } from '../core/schema'
import { hashContent } from '../workspace/local/hash'

/** What the snapshot functions need from the store: the database and a clock for `time.created`. */
export type SnapshotStore = Pick<StoreContext, 'db' | 'now'>

/** A manifest: a path relative to the workspace root (`src/a.ts`) → a content hash or a large-file marker. */
export type Manifest = Record<string, string>

/** A snapshot row, or its id to load one. */
export type SnapshotRef = Snapshot | string

/** opencode leaves untracked files over 2 MiB out of its snapshots; so do we. */
export const MAX_TRACKED_FILE_BYTES = 2 * 1024 * 1024

const LARGE_PREFIX = 'large:'

/**
 * A file over the size limit is recorded by size and modification time instead of by content, with no blob. Leaving
 * it out entirely would make it look absent: a revert to that snapshot would then delete a file the user had, just
 * because it was big. With the marker, a big file that changes still shows as changed, and restore leaves it alone.
 */
export function largeFileMarker(size: number, modified: number): string {
  return `${LARGE_PREFIX}${size}:${modified}`
}

/** True for a content hash (whose bytes are in `blobs`); false for a large-file marker. */
export function isContentHash(entry: string): boolean {
  return !entry.startsWith(LARGE_PREFIX)
}

/** The size recorded in a large-file marker. */
export function largeFileSize(entry: string): number | undefined {
  if (isContentHash(entry)) return undefined
  const size = Number(entry.slice(LARGE_PREFIX.length).split(':')[0])
  return Number.isFinite(size) ? size : undefined
}

/** Paths in code-unit order (not locale order), so the canonical form is the same on every machine. */
export function sortedPaths(files: Manifest): string[] {
  return Object.keys(files).sort(compareCodeUnits)
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The manifest as one string that depends only on its content: entries sorted by path. The project id is part of
 * it because snapshot rows belong to a project (two empty projects must not share a row).
 */
export function canonicalManifest(projectID: string, files: Manifest): string {
  return JSON.stringify([projectID, sortedPaths(files).map((path) => [path, files[path]])])
}

/** The snapshot id: the hash of the canonical manifest, so the same files give the same id and one row. */
export function snapshotID(projectID: string, files: Manifest): Promise<string> {
  return hashContent(new TextEncoder().encode(canonicalManifest(projectID, files)))
}
