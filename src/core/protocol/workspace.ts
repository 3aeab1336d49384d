import type { FileDiff } from '../schema'
import type { FileStat, WorkspaceBackend } from '../workspace'
import type { ProjectFileMatch } from '../dto/composer'

export type { ProjectFileMatch }

/** Which workspace backend the project's tools use, and why that one. */
export interface WorkspaceInfo {
  projectID: string
  backend: WorkspaceBackend
  root: string
  /** Why WebContainer is not in use, in words for the user (absent when it is). */
  reason?: string
}

/** A file as the viewer gets it: text when it is text, otherwise only its size. */
export type FileContent =
  | { type: 'text'; path: string; text: string; size: number }
  | { type: 'binary'; path: string; size: number }

/** A project's files as the file tree, viewer, preview and diff view read them, and which workspace serves them. */
export interface WorkspaceApi {
  workspaceInfo(projectID: string): WorkspaceInfo
  /** The page could not start WebContainer; `reason` says why, in words for the user. */
  useLocalWorkspace(reason: string): WorkspaceInfo
  listFiles(input: { projectID: string; path: string }): FileStat[]
  readFile(input: { projectID: string; path: string }): FileContent
  /** A file's bytes for the static preview (images and fonts too); null when there is no such file. */
  readPreviewFile(input: { projectID: string; path: string }): Uint8Array | null
  /** Fuzzy matches over the project's files and folders for the prompt's `@` (skips node_modules and .git). */
  searchProjectFiles(input: { projectID: string; query: string; limit: number }): ProjectFileMatch[]
  /** Every file the session's turns changed, net, with unified patches. */
  sessionDiffs(sessionID: string): FileDiff[]
}
