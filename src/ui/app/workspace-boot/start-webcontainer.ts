import * as Comlink from 'comlink'
import type { ClientApi, WorkspaceInfo } from '../../../core/protocol'
import { bootWebContainer } from '../../../workspace/webcontainer/boot'
import { exposeWorkspace } from '../../../workspace/webcontainer/bridge'
import { watchPreviews, type PreviewEmitter } from '../../../workspace/webcontainer/preview'
import { createWebContainerWorkspace, mountProjectFiles } from '../../../workspace/webcontainer/webcontainer-workspace'

export interface WebContainerStart {
  info: WorkspaceInfo
  /** Servers the project starts inside WebContainer, for the preview pane. */
  previews?: PreviewEmitter
}

/**
 * Boots WebContainer on the main thread (the only place it can boot) and hands it to the worker; when it cannot
 * boot (not isolated, unsupported browser, offline, StackBlitz unreachable within the timeout) the worker is told
 * why and the offline workspace goes on serving. The app never waits on this to render.
 */
export async function startWebContainer(api: ClientApi, options: { timeoutMs?: number } = {}): Promise<WebContainerStart> {
  const settings = await api.getSettings()
  if (settings.workspaceBackend === 'local') {
    return { info: await api.useLocalWorkspace('WebContainer is turned off in Settings: tools run in the offline workspace.') }
  }
  const result = await bootWebContainer(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {})
  if (result.status === 'failed') return { info: await api.useLocalWorkspace(result.message) }
  const workspace = createWebContainerWorkspace(result.container)
  const channel = new MessageChannel()
  exposeWorkspace(workspace, channel.port1, { mount: (files) => mountProjectFiles(result.container, files) })
  try {
    const info = await api.attachWorkspace(Comlink.transfer(channel.port2, [channel.port2]))
    return { info, previews: watchPreviews(result.container) }
  } catch (error) {
    const message = `WebContainer started but could not take the project's files (${error instanceof Error ? error.message : String(error)}); using the offline workspace.`
    return { info: await api.useLocalWorkspace(message) }
  }
}
