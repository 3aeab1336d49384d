import type { StoreContext } from '../session/context'
import { parseWith } from '../session/errors'
import { ascending } from '../session/id'
import { listProjects } from '../session/project-store'
import { ProjectSchema, type Project } from '../session/schema'
import { getSession } from '../session/session-store'
import { decode } from '../snapshot'
import { filesFromZip, prepareImport, type ImportedFile } from '../workspace/import-files'
import { resolvePath } from '../workspace/path'
import { WORKSPACE_ROOT, WorkspaceError } from '../workspace/workspace'
import type { FileContent, ProjectSource, WorkerHandlers } from './protocol'
import { connectWorkspace } from '../workspace/webcontainer/bridge'
import type { WorkspaceManager } from './workspace-manager'

type WorkspaceHandlers = Pick<
  WorkerHandlers,
  'listProjects' | 'createProject' | 'workspaceInfo' | 'listFiles' | 'readFile' | 'sessionDiffs' | 'attachWorkspace' | 'useLocalWorkspace'
>

async function sourceFiles(source: ProjectSource): Promise<ImportedFile[]> {
  switch (source.type) {
    case 'empty':
      return []
    case 'files':
      return prepareImport(source.files)
    case 'zip':
      return filesFromZip(source.data)
  }
}

/** Projects and their files, as the file tree, viewer and diff view read them. */
export function workspaceHandlers(
  ready: () => StoreContext,
  workspaces: () => WorkspaceManager,
  currentProject: () => string | undefined,
): WorkspaceHandlers {
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
    useLocalWorkspace: (reason) => {
      workspaces().setUnavailable(reason)
      const id = projectID()
      return { projectID: id, ...workspaces().status(id) }
    },
    listProjects: () => listProjects(ready()),
    createProject: async ({ name, source }) => {
      const context = ready()
      const title = name.trim()
      if (!title) throw new WorkspaceError('invalid-path', '', 'A project needs a name.')
      // Read the source before storing anything: a broken archive must not leave an empty project behind.
      const files = await sourceFiles(source)
      const now = context.now()
      const project: Project = parseWith(
        ProjectSchema,
        { id: ascending('project', now), name: title, directory: WORKSPACE_ROOT, time: { created: now, updated: now } },
        'project',
      )
      await context.db.projects.add(project)
      const workspace = await workspaces().localOf(project.id)
      for (const file of files) await workspace.writeFile(resolvePath(WORKSPACE_ROOT, file.path), file.data)
      return project
    },
    workspaceInfo: (projectID) => ({ projectID, ...workspaces().status(projectID) }),
    listFiles: async ({ projectID, path }) => (await workspaces().get(projectID)).list(resolvePath(WORKSPACE_ROOT, path)),
    readFile: async ({ projectID, path }): Promise<FileContent> => {
      const workspace = await workspaces().get(projectID)
      const absolute = resolvePath(WORKSPACE_ROOT, path)
      const data = await workspace.readFile(absolute)
      // The same test the diffs use: text is valid UTF-8 with no NUL byte early on.
      const text = decode({ type: 'bytes', data })
      return text === null ? { type: 'binary', path: absolute, size: data.byteLength } : { type: 'text', path: absolute, text, size: data.byteLength }
    },
    sessionDiffs: async (sessionID) => (await getSession(ready(), sessionID)).summary?.diffs ?? [],
  }
}
