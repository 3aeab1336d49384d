import type { Project, ReviewedRule } from '../schema'
import type { ProjectCommandSummary } from '../dto/commands'
import type { ProjectTrustReport } from '../dto/trust'
import type { WorkspaceInfo } from './workspace'
import type { OperationInput, ProgressCallback } from './operations'

export type { ProjectCommandSummary, ProjectTrustReport }

/** What a new project starts from. Files are given as path (relative to the project root) → bytes. */
export type ProjectSource =
  | { type: 'empty' }
  | { type: 'files'; files: { path: string; data: Uint8Array }[] }
  | { type: 'zip'; data: Uint8Array }
  /** A folder on disk the project *is* (the picker's handle, posted to the worker): nothing is copied. */
  | { type: 'disk'; handle: FileSystemDirectoryHandle }
  /** A repository's URL: cloned with git over HTTP(S) (the CORS proxy and tokens of Settings apply). */
  | { type: 'clone'; url: string }

/**
 * A project's folder on disk, as the page shows it: `connected` once the user granted access in this tab (after a
 * restart, or a reload, one click on "Reconnect to NAME" does it); until then its tools fail and say so.
 */
export interface ProjectFolderStatus {
  name: string
  connected: boolean
  /** The handle, for the page to ask the user's permission on (only the page can, on a click). */
  handle: FileSystemDirectoryHandle
}

/** A new project, and what its import left out (dependency and ignored folders), for the user to be told. */
export interface CreatedProject {
  project: Project
  leftOut: { files: number; folders: string[] }
}

/** Projects (each a named workspace): which one is open, whether it is trusted, and its own commands. */
export interface ProjectsApi {
  listProjects(): Project[]
  /** Opens another project: its sessions list, new sessions and WebContainer follow; remembered across reloads. */
  openProject(projectID: string): Project
  /** A project's trust, and what its own files would change once trusted, rule by rule (for the trust dialog). */
  projectTrust(input: { projectID: string }): ProjectTrustReport
  /**
   * Trusts a project or stops trusting it; every tab hears `project.updated`. `reviewed`: the allow rules of its files
   * the user was shown (only they apply); in a trusted project, adds them to those the user has seen.
   */
  setProjectTrust(input: { projectID: string; trusted: boolean; reviewed?: ReviewedRule[] }): Project
  /** The project's own commands for the `/` palette. */
  listProjectCommands(input: { projectID: string }): ProjectCommandSummary[]
  /** The folder on disk a project is; undefined for a project stored in the browser. */
  projectFolder(input: { projectID: string }): ProjectFolderStatus | undefined
  /**
   * The page has the user's permission for the project's folder (its `requestPermission` needs a click): the worker
   * opens the folder from then on, and every tab's file tree reloads. Fails, saying so, when access was not granted.
   */
  connectFolder(input: { projectID: string }): ProjectFolderStatus
  /**
   * Looks at a connected folder again (the window got the focus back: the user may have changed files in another
   * program); what changed is announced as `workspace.changed`. Nothing for a stored or unconnected project.
   */
  refreshFolder(input: { projectID: string }): void
}

/** Where a project's files come from: a new project's source, or WebContainer taking over the open project's. */
export interface ProjectSetupApi {
  /** A zip reports the bytes it inflated, then every source the files it stored; cancelled, nothing is stored. */
  createProject(input: { name: string; source: ProjectSource } & OperationInput, onProgress?: ProgressCallback): CreatedProject
  /** The page booted WebContainer and hands it over (a port to it); it then serves the current project's tools. */
  attachWorkspace(port: MessagePort): WorkspaceInfo
}
