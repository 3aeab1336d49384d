import type { StoreContext } from '../store/context'
import { parseWith } from '../core/errors'
import { ascending } from '../core/id'
import { ProjectSchema, type Project, type ProjectOrigin } from '../core/schema'
import { initialTrust } from '../core/project-files/trust'
import { filesFromZip, prepareImport, type PreparedImport } from '../workspace/import-files'
import { WORKSPACE_ROOT, WorkspaceError } from '../workspace/workspace'
import type { Handlers } from '../core/protocol/base'
import type { CreatedProject, ProjectSetupApi, ProjectSource } from '../core/protocol/projects'
import { connectWorkspace } from '../workspace/webcontainer/bridge'
import { createProjectWithFolder, createProjectWithRows, type ProjectRows } from '../store/project-rows'
import { projectRows } from '../snapshot/project-rows'
import type { WorkspaceManager } from './workspace-manager'
import type { GitRemotes } from '../workspace/runtime/program'
import type { OperationControl } from '../core/progress'
import { throwIfCancelled } from '../core/errors'
import type { Operations } from './operations'

/** Where a new project's files come from: only one started empty is the user's own from the start. */
function originOf(source: ProjectSource): ProjectOrigin {
  switch (source.type) {
    case 'empty':
      return { type: 'empty' }
    case 'files':
      return { type: 'folder' }
    case 'zip':
      return { type: 'zip' }
    case 'disk':
      return { type: 'disk', name: source.handle.name }
    case 'clone':
      return { type: 'clone', url: source.url }
  }
}

async function sourceFiles(source: ProjectSource, remotes: GitRemotes | undefined, control: OperationControl): Promise<PreparedImport> {
  switch (source.type) {
    case 'empty':
      return { files: [], leftOut: { files: 0, folders: [] } }
    case 'files':
      return prepareImport(source.files)
    case 'zip':
      return filesFromZip(source.data, control)
    // The folder is the project: nothing is read into the browser's storage.
    case 'disk':
      return { files: [], leftOut: { files: 0, folders: [] } }
    case 'clone': {
      if (!remotes) throw new WorkspaceError('unavailable', '', 'git has no way to remotes here.')
      // The repository's own files, `.git` included: nothing is left out of a clone.
      const { cloneFiles } = await import('../workspace/git/clone-files')
      return { files: await cloneFiles(source.url.trim(), remotes), leftOut: { files: 0, folders: [] } }
    }
  }
}

/**
 * A new project's rows (the project, its files, their blobs), read and checked from the source but not written:
 * a broken archive or an unusable path fails here, before anything is stored. `control` hears how far it is (a zip's
 * bytes inflated, then the files made ready) and may cancel, which stores nothing.
 */
export async function prepareProject(
  context: StoreContext,
  { name, source, origin = originOf(source) }: { name: string; source: ProjectSource; origin?: ProjectOrigin },
  remotes?: GitRemotes,
  control: OperationControl = {},
): Promise<{ rows: ProjectRows; leftOut: CreatedProject['leftOut'] }> {
  const title = name.trim()
  if (!title) throw new WorkspaceError('invalid-path', '', 'A project needs a name.')
  const { files, leftOut } = await sourceFiles(source, remotes, control)
  const now = context.now()
  const project: Project = parseWith(
    ProjectSchema,
    { id: ascending('project', now), name: title, directory: WORKSPACE_ROOT, origin, trust: initialTrust(origin, now), time: { created: now, updated: now } },
    'project',
  )
  return { rows: await projectRows(project, files, now, control), leftOut }
}

/** Projects: creating one, and which workspace serves it (the reads are in workspace-read-handlers.ts). */
export function workspaceHandlers(
  ready: () => StoreContext,
  workspaces: () => WorkspaceManager,
  currentProject: () => string | undefined,
  operations: Operations,
): Handlers<ProjectSetupApi> {
  const projectID = () => {
    const id = currentProject()
    if (!id) throw new WorkspaceError('unavailable', '', 'No project is open yet.')
    return id
  }
  return {
    attachWorkspace: async (port) => {
      ready()
      const id = projectID()
      await workspaces().attach(id, connectWorkspace(port))
      // File trees reload from the container, which now serves the files.
      ready().emit({ type: 'workspace.changed', projectID: id, change: { type: 'mkdir', path: WORKSPACE_ROOT } })
      return { projectID: id, ...workspaces().status(id) }
    },
    createProject: ({ operationID, ...input }, onProgress) =>
      operations.run(operationID, onProgress, async (control) => {
        // One transaction: a project is stored with all of its files or not at all.
        const { rows, leftOut } = await prepareProject(ready(), input, workspaces().remotes, control)
        // The last moment a cancel still leaves nothing: past here the project is written whole.
        throwIfCancelled(control.signal, 'Creating the project')
        return created(rows, leftOut, input.source)
      }),
  }
  /** Writes a prepared project, the folder on disk connected when it is one. */
  async function created(rows: ProjectRows, leftOut: CreatedProject['leftOut'], source: ProjectSource): Promise<CreatedProject> {
    if (source.type === 'disk') {
      const folder = { type: 'folder' as const, projectID: rows.project.id, name: source.handle.name, handle: source.handle }
      const project = await createProjectWithFolder(ready(), rows, folder)
      // The picker just granted access: this tab needs no reconnect.
      await workspaces().connectFolder(project.id)
      return { project, leftOut }
    }
    return { project: await createProjectWithRows(ready(), rows), leftOut }
  }
}
