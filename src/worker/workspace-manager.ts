import type { StoreContext } from '../store/context'
import { createLocalWorkspace, type LocalWorkspace } from '../workspace/local/local-workspace'
import { createDexieStorage } from '../store/dexie-storage'
import { mirrorWorkspace } from '../workspace/mirrored-workspace'
import { onDemandWebContainer } from '../workspace/on-demand'
import type { GitRemotes } from '../workspace/runtime/program'
import type { RemoteWorkspace } from '../workspace/webcontainer/bridge'
import { WORKSPACE_ROOT, WorkspaceError, type Workspace, type WorkspaceBackend, type WorkspaceChange } from '../workspace/workspace'
import { projectFolder } from '../store/folder-store'
import type { ProjectFolderStatus } from '../core/protocol/projects'
import type { OutsideChange } from '../workspace/disk/disk-workspace'

export interface WorkspaceStatus {
  backend: WorkspaceBackend
  root: string
  reason?: string
}

/** Until a command needs it, WebContainer is not started: a first visit contacts nobody but the app's own origin. */
export const ON_DEMAND_REASON = 'WebContainer starts when a command needs Node.js or npm; everything else runs in the offline workspace.'
/** The page's boot gives up after 20 s; this is the worker's own bound, in case no page answers at all. */
const WANT_TIMEOUT_MS = 30_000

export interface WorkspaceManagerOptions {
  /** Asks this tab's page to boot WebContainer (only the page can). */
  requestWebContainer: (reason: string) => void
  /** False when the user chose the offline workspace only: then nothing ever asks StackBlitz for anything. */
  webContainerAllowed: () => Promise<boolean>
  /** The programs a command line runs, by the shell's parser. */
  programs: (command: string) => Promise<readonly string[]>
  wantTimeoutMs?: number
  /** Files of a folder project that another program changed on disk, as the folder's workspace finds them. */
  onOutsideChange?: (projectID: string, workspace: Workspace, changes: OutsideChange[]) => void
  /** How the offline shell's `git` reaches remotes (the CORS proxy setting, the tokens, the token dialog). */
  remotes?: GitRemotes
}

/** A workspace that can look at its files again (a folder on disk: another program may have changed them). */
interface Refreshable {
  refresh(): Promise<void>
}

function isRefreshable(workspace: Workspace): workspace is Workspace & Refreshable {
  return typeof (workspace as Partial<Refreshable>).refresh === 'function'
}

/**
 * One workspace per project for the tools. The local backend (IndexedDB-backed, in this worker) always exists and
 * holds the project's files; when the page has booted WebContainer and attached it, tools use that instead. Every
 * change is announced as a `workspace.changed` event so file trees in every tab follow.
 */
export class WorkspaceManager {
  private readonly local = new Map<string, Promise<Workspace>>()
  private readonly attached = new Map<string, Workspace>()
  private unavailable: string = ON_DEMAND_REASON
  private remote: RemoteWorkspace | undefined
  private waiting: ((outcome: { workspace: Workspace } | { unavailable: string }) => void)[] = []
  /** Changes of a project held back while a user's file action runs (see `together`), with how many are running. */
  private readonly held = new Map<string, { depth: number; changes: WorkspaceChange[] }>()
  /**
   * Folder projects the user gave access to in this tab. A handle kept in IndexedDB comes back after a restart
   * without its permission, and `requestPermission` needs a click in the page; so until the page says the user
   * granted it (`connectFolder`), the folder is not opened and the project's tools fail saying why. Never a copy.
   */
  private readonly connected = new Set<string>()

  constructor(
    private readonly store: () => StoreContext,
    private readonly options: WorkspaceManagerOptions,
  ) {}

  /** How git reaches remotes (a new project cloned by URL uses it too). */
  get remotes(): GitRemotes | undefined {
    return this.options.remotes
  }

  /** The workspace the tools of this project use now: WebContainer once attached, else the offline one. */
  async get(projectID: string): Promise<Workspace> {
    const attached = this.attached.get(projectID)
    if (attached) return attached
    const local = await this.localOf(projectID)
    // Before every step and every read of the project: what another program changed on disk is seen first.
    if (isRefreshable(local)) await local.refresh()
    let wrapped = this.onDemand.get(local)
    if (!wrapped) {
      wrapped = onDemandWebContainer(local, { programs: this.options.programs, want: (reason) => this.want(projectID, reason) })
      this.onDemand.set(local, wrapped)
    }
    return wrapped
  }

  /**
   * One wrapper per loaded workspace: what is kept per workspace object (a run's last snapshot, the snapshot's
   * hash cache) holds from step to step. A new wrapper per call made every step walk and hash the project again.
   */
  private readonly onDemand = new WeakMap<Workspace, Workspace>()

  /**
   * WebContainer for a project, started on demand: attached already, or asked of the page and waited for until it
   * attaches or says why it can't. Concurrent wants share one request.
   */
  async want(projectID: string, reason: string): Promise<{ workspace: Workspace } | { unavailable: string }> {
    if (this.remote) await this.switchTo(projectID)
    const attached = this.attached.get(projectID)
    if (attached) return { workspace: attached }
    if (!(await this.options.webContainerAllowed())) return { unavailable: 'it is turned off in Settings (offline workspace only).' }
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle({ unavailable: 'no answer from the page within 30 s.' }), this.options.wantTimeoutMs ?? WANT_TIMEOUT_MS)
      const settle = (outcome: { workspace: Workspace } | { unavailable: string }) => {
        clearTimeout(timer)
        this.waiting = this.waiting.filter((waiter) => waiter !== settle)
        resolve(outcome)
      }
      this.waiting.push(settle)
      if (this.waiting.length === 1) this.options.requestWebContainer(reason)
    })
  }

  private settleWaiting(projectID: string | undefined): void {
    const attached = projectID ? this.attached.get(projectID) : undefined
    for (const settle of [...this.waiting]) settle(attached ? { workspace: attached } : { unavailable: this.unavailable })
  }

  /** The persisted, local copy of the project's files (also what WebContainer is mounted from). */
  localOf(projectID: string): Promise<Workspace> {
    let workspace = this.local.get(projectID)
    if (!workspace) {
      workspace = this.open(projectID)
      // A failed open must not be cached: the next call tries again.
      workspace.catch(() => this.local.delete(projectID))
      this.local.set(projectID, workspace)
    }
    return workspace
  }

  /**
   * The stored rows of a project's files changed under its loaded workspace (sync wrote files another device made):
   * the next use opens it again from storage, so listings and tools see them. A command running on the old one
   * finishes there; its writes go to the same storage.
   */
  forgetStored(projectID: string): void {
    this.local.delete(projectID)
  }

  private async open(projectID: string): Promise<Workspace> {
    const store = this.store()
    const onChange = (change: WorkspaceChange) => {
      const held = this.held.get(projectID)
      if (held) held.changes.push(change)
      else store.emit({ type: 'workspace.changed', projectID, change })
    }
    const folder = await projectFolder(store, projectID)
    const remotes = this.options.remotes ? { remotes: this.options.remotes } : {}
    if (!folder) return createLocalWorkspace({ storage: createDexieStorage(store.db, projectID), now: store.now, onChange, ...remotes })
    if (!this.connected.has(projectID)) {
      throw new WorkspaceError(
        'unavailable',
        WORKSPACE_ROOT,
        `The folder ${folder.name} is not connected in this tab: click "Reconnect to ${folder.name}" to give tabcode access to it again ` +
          '(the browser asks once after a restart). Nothing was read or written.',
      )
    }
    // Loaded with the first folder project: stored projects never load it.
    const [{ openDiskWorkspace }, { asDirectoryHandle }] = await Promise.all([import('../workspace/disk/disk-workspace'), import('../workspace/disk/directory-handle')])
    const workspace: Workspace = await openDiskWorkspace({
      handle: asDirectoryHandle(folder.handle),
      onChange,
      ...remotes,
      onOutsideChange: (changes) => this.options.onOutsideChange?.(projectID, workspace, changes),
    })
    return workspace
  }

  /** Looks at a connected folder project's files again; nothing for another project. */
  async refreshFolder(projectID: string): Promise<void> {
    const status = await this.folderStatus(projectID)
    if (!status?.connected) return
    const local = await this.localOf(projectID)
    if (isRefreshable(local)) await local.refresh()
  }

  /** The folder on disk a project is, and whether this tab may use it; undefined for a stored project. */
  async folderStatus(projectID: string): Promise<ProjectFolderStatus | undefined> {
    const folder = await projectFolder(this.store(), projectID)
    return folder && { name: folder.name, connected: this.connected.has(projectID), handle: folder.handle }
  }

  /**
   * The user granted access to the project's folder in this tab (the picker did, or a click on "Reconnect"): it is
   * opened on next use. Where the worker can ask the handle itself, a refusal is caught here rather than at a tool.
   */
  async connectFolder(projectID: string): Promise<ProjectFolderStatus> {
    const folder = await projectFolder(this.store(), projectID)
    if (!folder) throw new WorkspaceError('unavailable', WORKSPACE_ROOT, 'This project is not a folder on disk.')
    const { asDirectoryHandle } = await import('../workspace/disk/directory-handle')
    const state = await asDirectoryHandle(folder.handle).queryPermission?.({ mode: 'readwrite' })
    if (state !== undefined && state !== 'granted') {
      throw new WorkspaceError('unavailable', WORKSPACE_ROOT, `The browser did not give access to the folder ${folder.name}.`)
    }
    this.connected.add(projectID)
    // File trees that showed the "not connected" error load the folder's files.
    this.store().emit({ type: 'workspace.changed', projectID, change: { type: 'mkdir', path: WORKSPACE_ROOT } })
    return { name: folder.name, connected: true, handle: folder.handle }
  }

  /**
   * Runs a change of several steps (a move is a write, then a removal) and announces its changes only when it is
   * done, all in one task: a tree that heard the write alone would list the entry in both places for a moment.
   */
  async together<T>(projectID: string, change: () => Promise<T>): Promise<T> {
    const held = this.held.get(projectID) ?? { depth: 0, changes: [] }
    held.depth++
    this.held.set(projectID, held)
    try {
      return await change()
    } finally {
      if (--held.depth === 0) {
        this.held.delete(projectID)
        const store = this.store()
        for (const change of held.changes) store.emit({ type: 'workspace.changed', projectID, change })
      }
    }
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
    this.settleWaiting(projectID)
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
    this.settleWaiting(undefined)
  }
}
