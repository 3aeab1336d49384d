import { NotFoundError, serializeError, type SerializedError } from '../core/errors'
import type { Blob, Snapshot } from '../core/schema'
import { isInside, relativePath, resolvePath } from '../workspace/path'
import { WorkspaceError, type Workspace } from '../workspace/workspace'
import { loadSnapshot } from './diff'
import { getBlobs } from '../store/blobs'
import { hashContent } from '../workspace/local/hash'
import { compareCodeUnits, isContentHash, type SnapshotRef, type SnapshotStore } from './manifest'
import type { StepPatch } from './patch'

export interface RestoreResult {
  /** Files written back with their snapshot content. */
  written: string[]
  /** Files removed because the snapshot did not have them. */
  deleted: string[]
  /** Files already as the snapshot has them. */
  unchanged: string[]
  /** Files left alone: recorded only by size (over the tracking limit), or a directory now stands at the path. */
  skipped: Array<{ file: string; reason: 'large' | 'directory' }>
  /** Files whose write or removal failed; the others were still restored. */
  failed: Array<{ file: string; error: SerializedError }>
}

const emptyResult = (): RestoreResult => ({ written: [], deleted: [], unchanged: [], skipped: [], failed: [] })

/**
 * Puts each listed file back as it was in `snapshot`, deleting the ones the snapshot did not have. File by file,
 * never the whole tree: files not listed are not touched, so edits made elsewhere survive (opencode's whole-tree
 * checkout clobbers them, issues #10287 and #36465). Paths are relative to the workspace root (absolute paths inside
 * it are accepted). Throws before touching anything if a needed blob is missing.
 */
export async function restoreFiles(input: RestoreInput): Promise<RestoreResult> {
  return applyRestore(input.workspace, await prepareRestore(input))
}

export interface RestoreInput {
  store: SnapshotStore
  workspace: Workspace
  snapshot: SnapshotRef
  files: readonly string[]
}

interface PreparedRestore {
  snapshot: Snapshot
  files: string[]
  blobs: Map<string, Blob>
}

/** Loads the snapshot and every blob the restore needs, so a missing one fails the restore before any write. */
async function prepareRestore(input: RestoreInput): Promise<PreparedRestore> {
  const snapshot = await loadSnapshot(input.store, input.snapshot)
  const root = input.workspace.root
  // Paths outside the root stay as given; applyRestore reports them as failed.
  const relative = (file: string) => {
    const path = resolvePath(root, file)
    return isInside(root, path) ? relativePath(root, path) : file
  }
  const files = [...new Set(input.files.map(relative))]
  const entries = files.map((file) => snapshot.files[file])
  const hashes = [...new Set(entries.filter((entry): entry is string => entry !== undefined && isContentHash(entry)))]
  const blobs = new Map<string, Blob>()
  for (const [index, blob] of (await getBlobs(input.store, hashes)).entries()) {
    if (!blob) throw new NotFoundError('blob', hashes[index]!)
    blobs.set(blob.hash, blob)
  }
  return { snapshot, files, blobs }
}

async function applyRestore(workspace: Workspace, { snapshot, files, blobs }: PreparedRestore): Promise<RestoreResult> {
  const result = emptyResult()
  for (const file of files) {
    const path = resolvePath(workspace.root, file)
    const entry = snapshot.files[file]
    try {
      if (!isInside(workspace.root, path)) throw new WorkspaceError('invalid-path', file, `${file} is outside the workspace`)
      const current = await workspace.stat(path)
      if (current?.type === 'directory') {
        result.skipped.push({ file, reason: 'directory' })
      } else if (entry === undefined) {
        if (!current) result.unchanged.push(file)
        else {
          await workspace.remove(path)
          result.deleted.push(file)
        }
      } else if (!isContentHash(entry)) {
        result.skipped.push({ file, reason: 'large' })
      } else {
        const blob = blobs.get(entry)!
        if (current && current.size === blob.size && (await hashContent(await workspace.readFile(path))) === entry) {
          result.unchanged.push(file)
        } else {
          await workspace.writeFile(path, blob.data)
          result.written.push(file)
        }
      }
    } catch (error) {
      result.failed.push({ file, error: serializeError(error) })
    }
  }
  return result
}

/**
 * Which files a revert restores from which snapshot: every file the patches touched, taken from the pre-step
 * snapshot of the oldest patch that touched it (patches in chronological order), as opencode's revert does.
 */
export function revertPlan(patches: readonly StepPatch[]): Array<{ snapshot: string; files: string[] }> {
  const owner = new Map<string, string>()
  for (const patch of patches) for (const file of patch.files) if (!owner.has(file)) owner.set(file, patch.hash)
  const groups = new Map<string, string[]>()
  for (const [file, snapshot] of owner) groups.set(snapshot, [...(groups.get(snapshot) ?? []), file])
  return [...groups].map(([snapshot, files]) => ({ snapshot, files: files.sort(compareCodeUnits) }))
}

/**
 * Undoes the file changes of the given patches (see `revertPlan`). To make it undoable, track a snapshot first; to
 * undo, `restoreFiles` that snapshot for the files of the plan.
 */
export async function revertPatches(input: { store: SnapshotStore; workspace: Workspace; patches: readonly StepPatch[] }): Promise<RestoreResult> {
  const { store, workspace } = input
  const prepared = await Promise.all(revertPlan(input.patches).map((group) => prepareRestore({ store, workspace, ...group })))
  const result = emptyResult()
  for (const group of prepared) {
    const part = await applyRestore(workspace, group)
    result.written.push(...part.written)
    result.deleted.push(...part.deleted)
    result.unchanged.push(...part.unchanged)
    result.skipped.push(...part.skipped)
    result.failed.push(...part.failed)
  }
  return result
}
