import type { FileDiff } from '../schema'

/** A save from the editor (see `EditorApi.saveFile`). */
export interface SaveFileInput {
  projectID: string
  path: string
  content: string
  expected?: string
  sessionID?: string
}

export interface SavedFile {
  path: string
  size: number
  modified: number
}

/** Where a file-tree action left its file or folder. */
export interface FileActionResult {
  path: string
  type: 'file' | 'directory'
}

/** A deletion the worker can undo (`restoreDeleted` with the token). */
export interface DeletedEntry {
  token: string
  path: string
  type: 'file' | 'directory'
  /** How many files went with it (a folder's, counted through its subfolders). */
  files: number
}

/** The editor's saves (issue 17). */
export interface EditorApi {
  /**
   * Saves a file the user edited: written through the project's workspace (watchers, tree and snapshots see it),
   * snapshotted, and recorded on `sessionID` as the user's change. With `expected` (the text the editor started
   * from), a file changed on disk since then is not overwritten: a SaveConflictError.
   */
  saveFile(input: SaveFileInput): SavedFile
  /** The files the user saved while the session was open, net per file, with unified patches. */
  userEdits(sessionID: string): FileDiff[]
  /** What other programs changed in a folder project's files while the session was open ("changed outside"). */
  outsideEdits(sessionID: string): FileDiff[]
}

/** The file tree's own changes (issue 17), each a user change snapshotted like an editor save. */
export interface FilesApi {
  /** Creates an empty file `name` in `directory`; a name that cannot be used is a WorkspaceError saying why. */
  createFile(input: { projectID: string; directory: string; name: string; sessionID?: string }): FileActionResult
  createFolder(input: { projectID: string; directory: string; name: string; sessionID?: string }): FileActionResult
  /** Renames a file or folder in place, contents (and a folder's whole subtree) kept. */
  renameFile(input: { projectID: string; path: string; name: string; sessionID?: string }): FileActionResult
  /** Moves a file or folder into `directory`, keeping its name. */
  moveFile(input: { projectID: string; path: string; directory: string; sessionID?: string }): FileActionResult
  /** Deletes a file or folder; the worker keeps its contents for `restoreDeleted` (the last few, while it lives). */
  deleteFile(input: { projectID: string; path: string; sessionID?: string }): DeletedEntry
  /** Puts a deleted file or folder back where it was, contents included. */
  restoreDeleted(input: { token: string; sessionID?: string }): FileActionResult
  /** Files dropped from the OS into `directory` (paths relative to it), with the import's safety rules. */
  writeUploaded(input: { projectID: string; directory: string; files: { path: string; data: Uint8Array }[]; sessionID?: string }): { written: string[] }
  /** The project's files as a zip archive (without node_modules), zipped in the worker. */
  zipProject(input: { projectID: string }): { name: string; data: Uint8Array }
}
