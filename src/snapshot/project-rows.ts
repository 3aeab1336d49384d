import type { Blob, Project, WorkspaceEntry } from '../core/schema'
import type { ProjectRows } from '../store/project-rows'
import type { ImportedFile } from '../workspace/import-files'
import { dirname, resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError } from '../workspace/workspace'
import { hashContent } from '../workspace/local/hash'
import { throwIfCancelled } from '../core/errors'
import type { OperationControl } from '../core/progress'

/**
 * The `files` and `blobs` rows of a project made from `files` (already made safe by `prepareImport`), the same
 * entries the local workspace would store writing them one by one: every missing parent directory, each content
 * once. Nothing is written, so a caller can put the project, its files and its sessions in one transaction.
 * `control` hears how many files are done and may cancel (with `CancelledError`), which leaves nothing to write.
 */
export async function projectRows(project: Project, files: readonly ImportedFile[], modified: number, control: OperationControl = {}): Promise<ProjectRows> {
  const entries = new Map<string, WorkspaceEntry>()
  const blobs = new Map<string, Blob>()
  const total = files.length
  let done = 0
  control.onProgress?.({ type: 'count', unit: 'files', done, total })
  for (const file of files) {
    throwIfCancelled(control.signal, 'Creating the project')
    const path = resolvePath(WORKSPACE_ROOT, file.path)
    const data = file.data.slice()
    const hash = await hashContent(data)
    if (entries.get(path)?.type === 'directory') throw new WorkspaceError('is-directory', path, `Is a directory: ${path}`)
    for (let parent = dirname(path); parent !== WORKSPACE_ROOT && parent !== '/'; parent = dirname(parent)) {
      const entry = entries.get(parent)
      if (entry?.type === 'file') throw new WorkspaceError('not-directory', path, `Not a directory: ${parent}`)
      if (entry) break
      entries.set(parent, { type: 'directory', projectID: project.id, path: parent, modified })
    }
    // The last file at a path wins, as the last write would.
    entries.set(path, { type: 'file', projectID: project.id, path, hash, size: data.length, modified })
    blobs.set(hash, { hash, data, size: data.length })
    control.onProgress?.({ type: 'count', unit: 'files', done: ++done, total })
  }
  return { project, files: [...entries.values()], blobs: [...blobs.values()] }
}
