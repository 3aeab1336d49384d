import { createSignal, onMount, type Accessor } from 'solid-js'
import { log } from '../../../core/log'
import type { ClientApi, WorkspaceInfo } from '../../../core/protocol'
import type { PreviewEmitter } from '../../../workspace/webcontainer/preview'
import { callback } from '../../worker-client'
import { createPreviewServers } from '../../workspace/create-preview-servers'
import type { PreviewServer } from '../../workspace/preview-pane'

export interface WebContainerStartControl {
  info: Accessor<WorkspaceInfo | undefined>
  previews: Accessor<PreviewServer[]>
  /** True when Settings allow WebContainer; false for "offline workspace only". */
  allowed: Accessor<boolean>
  starting: Accessor<boolean>
  /** Boots WebContainer now (the user asked); a boot already under way is not started twice. */
  start(): void
}

/**
 * WebContainer on demand: nothing is booted (and StackBlitz, where its runtime lives, is not contacted) until a
 * command needs Node.js or npm (the worker asks) or the user asks. Meanwhile the offline workspace serves, and says
 * so. The boot code loads only then.
 */
export function createWebContainerStart(api: ClientApi): WebContainerStartControl {
  const [info, setInfo] = createSignal<WorkspaceInfo>()
  const [emitter, setEmitter] = createSignal<PreviewEmitter>()
  const [allowed, setAllowed] = createSignal(false)
  const [starting, setStarting] = createSignal(false)
  const start = () => {
    if (starting() || info()?.backend === 'webcontainer') return
    setStarting(true)
    import('./start-webcontainer')
      .then(({ startWebContainer }) => startWebContainer(api))
      .then(
        (started) => {
          setInfo(started.info)
          if (started.previews) setEmitter(started.previews)
        },
        (error: unknown) => log.warn('tabcode: WebContainer could not be started', error),
      )
      .finally(() => setStarting(false))
  }
  onMount(() => {
    void api
      .onNotice(
        callback((notice) => {
          if (notice.type === 'webcontainer-wanted' && info()?.backend !== 'webcontainer') start()
        }),
      )
      .catch((error: unknown) => log.warn('tabcode: could not listen for WebContainer requests', error))
    api.getSettings().then(
      (settings) => {
        setAllowed(settings.workspaceBackend !== 'local')
        // A boot the worker asked for meanwhile reports for itself.
        if (starting() || info()) return
        const reason =
          settings.workspaceBackend === 'local'
            ? 'WebContainer is turned off in Settings: tools run in the offline workspace.'
            : 'WebContainer starts when a command needs Node.js or npm; everything else runs in the offline workspace.'
        return api.useLocalWorkspace(reason).then((local) => {
          if (!starting() && !info()) setInfo(local)
        })
      },
      (error: unknown) => log.warn('tabcode: could not read the workspace setting', error),
    )
  })
  return { info, previews: createPreviewServers(emitter), allowed, starting, start }
}
