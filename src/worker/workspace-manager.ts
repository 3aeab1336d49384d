import type { StoreContext } from '../session/context'
import { createLocalWorkspace, type LocalWorkspace } from '../workspace/local/local-workspace'
import { mirrorWorkspace } from '../workspace/mirrored-workspace'
import type { RemoteWorkspace } from '../workspace/webcontainer/bridge'
import { WORKSPACE_ROOT, type Workspace, type WorkspaceBackend } from '../workspace/workspace'

export interface WorkspaceStatus {
  backend: WorkspaceBackend
  root: string
  reason?: string
}

/** Until the page reports on WebContainer, the offline workspace serves, and says why. */
const PENDING_REASON = 'WebContainer has not started (yet); the offline workspace serves meanwhile.'

/**
 * One workspace per project for the tools. The local backend (IndexedDB-backed, in this worker) always exists and
 * holds the project's files; when the page has booted WebContainer and attached it, tools use that instead. Every
 * change is announced as a `workspace.changed` event so file trees in every tab follow.
 */
export class WorkspaceManager {
  private readonly local = new Map<string, Promise<Workspace>>()
  private readonly attached = new Map<string, Workspace>()
  private unavailable: string = PENDING_REASON
  private remote: RemoteWorkspace | undefined

  constructor(private readonly store: () => StoreContext) {}

  /** The workspace the tools of this project use now. */
  async get(projectID: string): Promise<Workspace> {
    return this.attached.get(projectID) ?? this.localOf(projectID)
  }

  /** The persisted, local copy of the project's files (also what WebContainer is mounted from). */
  localOf(projectID: string): Promise<Workspace> {
    let workspace = this.local.get(projectID)
    if (!workspace) {
      const store = this.store()
      workspace = createLocalWorkspace({
        db: store.db,
        projectID,
        now: store.now,
        onChange: (change) => store.emit({ type: 'workspace.changed', projectID, change }),
      })
      // A failed open must not be cached: the next call tries again.
      workspace.catch(() => this.local.delete(projectID))
      this.local.set(projectID, workspace)
    }
    return workspace
  }

  status(projectID: string): WorkspaceStatus {
    if (this.attached.has(projectID)) return { backend: 'webcontainer', root: WORKSPACE_ROOT }
    return { backend: 'local', root: WORKSPACE_ROOT, reason: this.unavailable }
  }

  /**
   * WebContainer booted in the page: it gets the project's persisted files, and from then on serves the project's
   * tools, mirrored into the persisted copy. One container has one working directory, so it serves one project.
   */
  async attach(projectID: string, remote: RemoteWorkspace): Promise<void> {
    this.remote = remote
    const local = (await this.localOf(projectID)) as LocalWorkspace
    const manifest = await local.manifest()
    const files = await Promise.all(Object.keys(manifest).map(async (path) => ({ path, data: await local.readFile(path) })))
    await remote.mount(files)
    for (const [id, workspace] of this.attached) {
      ;(workspace as { dispose?: () => void }).dispose?.()
      this.attached.delete(id)
    }
    this.attached.set(projectID, mirrorWorkspace(remote, local))
  }

  /**
   * Another project is opened: WebContainer (if running) is emptied and given that project's files, so commands
   * run against the right project. The previous project's files stay safe in its persisted copy.
   */
  async switchTo(projectID: string): Promise<void> {
    const remote = this.remote
    if (!remote || this.attached.has(projectID)) return
    for (const entry of await remote.list(remote.root)) await remote.remove(entry.path, { recursive: true })
    await this.attach(projectID, remote)
  }

  /** The page could not start WebContainer: why, in words for the user. */
  setUnavailable(reason: string): void {
    this.unavailable = reason
    this.remote = undefined
    this.attached.clear()
  }
}
