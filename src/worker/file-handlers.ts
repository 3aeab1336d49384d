import { zipSync, type Zippable } from 'fflate'
import { baseName, childPath, moveProblem, nameProblem } from '../core/file-names'
import type { Handlers } from '../core/protocol/base'
import type { DeletedEntry, FileActionResult, FilesApi } from '../core/protocol/files'
import type { ReviewedRule } from '../core/schema'
import { changedFiles, takeSnapshot } from '../snapshot'
import type { StoreContext } from '../store/context'
import { findProject } from '../store/project-store'
import { updateSession } from '../store/session-store'
import { prepareUpload } from '../workspace/import-files'
import { relativePath, resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError, type Workspace } from '../workspace/workspace'
import { recordEdit } from './editor-handlers'
import { deletedByUser, movedByUser, restoredByUser, writeAsUser } from './user-agent-files'

/** A file or folder as it was read, to write it somewhere else or back. */
interface Entry {
  type: 'file' | 'directory'
  /** Relative to the entry itself ('' for a file); folders listed so empty ones come back too. */
  files: { path: string; data: Uint8Array }[]
  directories: string[]
}

interface Deleted {
  projectID: string
  path: string
  entry: Entry
  /** The allow rules the user had seen in its agent files, to count as seen again when it is brought back. */
  reviewed: ReviewedRule[]
}

// Undo of a delete is for a while, not forever: the last few are held in memory, like an editor's undo stack.
const KEPT_DELETIONS = 20
const ZIP_SKIPPED = new Set(['node_modules'])

/**
 * The file tree's changes. Every write goes through the project's workspace, so watchers, the tree, snapshots
 * and the agent's stale-read guard (which compares modification times) see it, and each action is snapshotted
 * before and after like an editor save: with a session open it is recorded on the session as the user's change.
 * They are the user's own hands: in a trusted project, the allow rules an upload brings into agent files apply at
 * once, and those the user had seen follow a renamed or moved file (`user-agent-files.ts`).
 */
export function fileHandlers(
  ready: () => StoreContext,
  workspaceOf: (projectID: string) => Promise<Workspace>,
  /** Announces the changes `change` makes only once it is done (WorkspaceManager.together). */
  together: <T>(projectID: string, change: () => Promise<T>) => Promise<T> = (_projectID, change) => change(),
): Handlers<FilesApi> {
  const deleted = new Map<string, Deleted>()

  async function userChange<T>(projectID: string, sessionID: string | undefined, change: (workspace: Workspace) => Promise<T>): Promise<T> {
    const store = ready()
    const workspace = await workspaceOf(projectID)
    const before = await takeSnapshot({ store, projectID, workspace })
    const result = await together(projectID, () => change(workspace))
    const after = await takeSnapshot({ store, projectID, workspace })
    const files = changedFiles(before, after)
    if (sessionID && files.length > 0) {
      await updateSession(
        store,
        sessionID,
        (draft) => {
          let edits = draft.userEdits ?? []
          for (const file of files) edits = recordEdit(edits, { file, before: before.files[file], after: after.files[file], time: store.now() })
          draft.userEdits = edits
        },
        { touch: false },
      )
    }
    return result
  }

  /** A rename or move by the user: the rules they had seen in its agent files follow it. */
  async function relocateAsUser(projectID: string, workspace: Workspace, source: string, target: string): Promise<FileActionResult> {
    const result = await relocate(workspace, source, target)
    if (target !== source) await movedByUser(ready(), projectID, relativePath(workspace.root, source), relativePath(workspace.root, target))
    return result
  }

  return {
    createFile: ({ projectID, directory, name, sessionID }) =>
      userChange(projectID, sessionID, async (workspace) => {
        const path = await freshChild(workspace, directory, name)
        await workspace.writeFile(path, '')
        return { path, type: 'file' }
      }),
    createFolder: ({ projectID, directory, name, sessionID }) =>
      userChange(projectID, sessionID, async (workspace) => {
        const path = await freshChild(workspace, directory, name)
        await workspace.mkdir(path, { recursive: true })
        return { path, type: 'directory' }
      }),
    renameFile: ({ projectID, path, name, sessionID }) =>
      userChange(projectID, sessionID, async (workspace) => {
        const source = inside(workspace, path)
        const parent = source.slice(0, source.lastIndexOf('/'))
        const target = await freshChild(workspace, parent, name, baseName(source))
        return relocateAsUser(projectID, workspace, source, target)
      }),
    moveFile: ({ projectID, path, directory, sessionID }) =>
      userChange(projectID, sessionID, async (workspace) => {
        const source = inside(workspace, path)
        const folder = inside(workspace, directory, true)
        const problem = moveProblem(source, folder)
        if (problem) throw new WorkspaceError('invalid-path', source, problem)
        const stat = await workspace.stat(folder)
        if (stat?.type !== 'directory') throw new WorkspaceError('not-directory', folder, `${relativePath(workspace.root, folder)} is not a folder.`)
        const target = await freshChild(workspace, folder, baseName(source))
        return relocateAsUser(projectID, workspace, source, target)
      }),
    deleteFile: ({ projectID, path, sessionID }): Promise<DeletedEntry> =>
      userChange(projectID, sessionID, async (workspace) => {
        const source = inside(workspace, path)
        const entry = await readEntry(workspace, source)
        await workspace.remove(source, { recursive: true })
        const reviewed = await deletedByUser(ready(), projectID, relativePath(workspace.root, source))
        const token = crypto.randomUUID()
        deleted.set(token, { projectID, path: source, entry, reviewed })
        for (const old of deleted.keys()) if (deleted.size > KEPT_DELETIONS) deleted.delete(old)
        return { token, path: source, type: entry.type, files: entry.files.length }
      }),
    restoreDeleted: async ({ token, sessionID }): Promise<FileActionResult> => {
      const record = deleted.get(token)
      if (!record) throw new WorkspaceError('not-found', '', 'That deletion can no longer be undone (tabcode was reloaded since).')
      return userChange(record.projectID, sessionID, async (workspace) => {
        if (await workspace.stat(record.path)) {
          throw new WorkspaceError('exists', record.path, `${relativePath(workspace.root, record.path)} exists again: rename it first to bring the deleted one back.`)
        }
        await writeEntry(workspace, record.path, record.entry)
        await restoredByUser(ready(), record.projectID, record.reviewed)
        deleted.delete(token)
        return { path: record.path, type: record.entry.type }
      })
    },
    writeUploaded: ({ projectID, directory, files, sessionID }) =>
      userChange(projectID, sessionID, async (workspace) => {
        const folder = inside(workspace, directory, true)
        const prepared = prepareUpload(files).map((file) => ({ absolute: `${folder}/${file.path}`, data: file.data }))
        const own = prepared.map((file) => ({ path: relativePath(workspace.root, file.absolute), content: file.data }))
        return writeAsUser(ready(), projectID, workspace, own, async () => {
          const written: string[] = []
          for (const file of prepared) {
            await workspace.writeFile(file.absolute, file.data)
            written.push(file.absolute)
          }
          return { written }
        })
      }),
    zipProject: async ({ projectID }) => {
      const store = ready()
      const workspace = await workspaceOf(projectID)
      const entry = await readEntry(workspace, workspace.root, ZIP_SKIPPED)
      const tree: Zippable = {}
      for (const directory of entry.directories) tree[`${directory}/`] = new Uint8Array(0)
      for (const file of entry.files) tree[file.path] = file.data
      const project = await findProject(store, projectID)
      return { name: `${slug(project?.name ?? 'project')}.zip`, data: zipSync(tree, { level: 6 }) }
    },
  }
}

/** An absolute path inside the project (the root itself only where a folder is meant). */
function inside(workspace: Workspace, path: string, rootAllowed = false): string {
  const absolute = resolvePath(WORKSPACE_ROOT, path)
  const root = workspace.root
  if ((absolute === root && rootAllowed) || absolute.startsWith(`${root}/`)) return absolute
  throw new WorkspaceError('invalid-path', absolute, absolute === root ? 'The project folder itself cannot be changed here.' : `${absolute} is outside the project.`)
}

/** `name` in `directory`, checked by the tree's rules against what is there (`self` is the entry being renamed). */
async function freshChild(workspace: Workspace, directory: string, name: string, self?: string): Promise<string> {
  const folder = inside(workspace, directory, true)
  const siblings = (await workspace.list(folder)).map((stat) => stat.name).filter((sibling) => sibling !== self)
  const problem = nameProblem(name, siblings)
  if (problem) throw new WorkspaceError(problem.includes('exists') ? 'exists' : 'invalid-path', childPath(folder, name), problem)
  return childPath(folder, name)
}

/** Rename and move: the workspace has no rename, so the entry is written at its new place, then removed. */
async function relocate(workspace: Workspace, source: string, target: string): Promise<FileActionResult> {
  const entry = await readEntry(workspace, source)
  if (target === source) return { path: target, type: entry.type }
  await writeEntry(workspace, target, entry)
  await workspace.remove(source, { recursive: true })
  return { path: target, type: entry.type }
}

async function readEntry(workspace: Workspace, path: string, skip: ReadonlySet<string> = new Set()): Promise<Entry> {
  const stat = await workspace.stat(path)
  if (!stat) throw new WorkspaceError('not-found', path, `${relativePath(workspace.root, path)} is not there any more.`)
  if (stat.type === 'file') return { type: 'file', files: [{ path: '', data: await workspace.readFile(path) }], directories: [] }
  const entry: Entry = { type: 'directory', files: [], directories: [] }
  const walk = async (directory: string, prefix: string): Promise<void> => {
    for (const child of await workspace.list(directory)) {
      if (skip.has(child.name)) continue
      const relative = `${prefix}${child.name}`
      if (child.type === 'directory') {
        entry.directories.push(relative)
        await walk(child.path, `${relative}/`)
      } else entry.files.push({ path: relative, data: await workspace.readFile(child.path) })
    }
  }
  await walk(path, '')
  return entry
}

async function writeEntry(workspace: Workspace, path: string, entry: Entry): Promise<void> {
  if (entry.type === 'file') {
    await workspace.writeFile(path, entry.files[0]?.data ?? new Uint8Array(0))
    return
  }
  await workspace.mkdir(path, { recursive: true })
  for (const directory of entry.directories) await workspace.mkdir(`${path}/${directory}`, { recursive: true })
  for (const file of entry.files) await workspace.writeFile(`${path}/${file.path}`, file.data)
}

function slug(name: string): string {
  return name.trim().replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'project'
}
