import type { WorkspaceEntry } from '../core/schema'
import type { Snapshot } from '../core/schema'
import { dirname, isInside, relativePath, resolvePath } from '../workspace/path'
import { compareCodeUnits, isContentHash, largeFileMarker, type SnapshotStore } from './manifest'
import { getBlobs } from '../store/blobs'

export interface ProjectFilesInput {
  store: SnapshotStore
  /** The files the new project starts with. */
  snapshot: Snapshot
  /** The new project. */
  projectID: string
  root: string
  /** The workspace rows of the project the snapshot was taken of, as they are now. */
  source: readonly WorkspaceEntry[]
  /**
   * The paths (relative to the root) snapshots of the source track now. A source file outside them (ignored by
   * `.gitignore`, or excluded like `node_modules`) was never recorded, so the copy gets it as it is now.
   */
  tracked: ReadonlySet<string>
  now: number
}

export interface ProjectFiles {
  rows: WorkspaceEntry[]
  /** Files the snapshot names whose contents are not stored (a large file changed since, a blob cleared). */
  missing: string[]
}

/**
 * The workspace rows of a new project holding a snapshot's files. Only rows are made: contents are blobs shared by
 * hash, so a copy of a project costs no file data. Parent directories get rows of their own.
 */
export async function projectFilesFromSnapshot(input: ProjectFilesInput): Promise<ProjectFiles> {
  const { snapshot, projectID, root, now } = input
  const sources = new Map<string, Extract<WorkspaceEntry, { type: 'file' }>>()
  const sizes = new Map<string, number>()
  for (const row of input.source) {
    if (row.type !== 'file' || !isInside(root, row.path) || row.path === root) continue
    sources.set(relativePath(root, row.path), row)
    sizes.set(row.hash, row.size)
  }

  const files: Array<{ path: string; hash: string; size?: number; modified: number }> = []
  const missing: string[] = []
  for (const [file, entry] of Object.entries(snapshot.files)) {
    const path = resolvePath(root, file)
    if (isContentHash(entry)) {
      files.push({ path, hash: entry, modified: now, ...(sizes.has(entry) ? { size: sizes.get(entry)! } : {}) })
      continue
    }
    // A large file is recorded by size and time only: the current one is that file if neither changed.
    const current = sources.get(file)
    if (current && largeFileMarker(current.size, current.modified) === entry) files.push({ path, hash: current.hash, size: current.size, modified: current.modified })
    else missing.push(file)
  }
  for (const [file, row] of sources) {
    if (!input.tracked.has(file) && snapshot.files[file] === undefined) files.push({ path: row.path, hash: row.hash, size: row.size, modified: row.modified })
  }

  const unknown = [...new Set(files.filter((file) => file.size === undefined).map((file) => file.hash))]
  const blobs = await getBlobs(input.store, unknown)
  for (const [index, blob] of blobs.entries()) if (blob) sizes.set(unknown[index]!, blob.size)

  const rows: WorkspaceEntry[] = []
  const directories = new Set<string>()
  for (const file of files.sort((a, b) => compareCodeUnits(a.path, b.path))) {
    const size = file.size ?? sizes.get(file.hash)
    if (size === undefined) {
      missing.push(relativePath(root, file.path))
      continue
    }
    rows.push({ type: 'file', projectID, path: file.path, hash: file.hash, size, modified: file.modified })
    for (let parent = dirname(file.path); parent !== root && isInside(root, parent); parent = dirname(parent)) directories.add(parent)
  }
  for (const path of directories) rows.push({ type: 'directory', projectID, path, modified: now })
  return { rows, missing: missing.sort(compareCodeUnits) }
}
