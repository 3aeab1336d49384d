import { createSignal, onMount, type Accessor } from 'solid-js'
import { log } from '../../log/log'
import type { ClientApi, WorkspaceInfo } from '../../worker/protocol'
import type { PreviewEmitter } from '../../workspace/webcontainer/preview'
import { createPreviewServers } from '../workspace/create-preview-servers'
import type { PreviewServer } from '../workspace/preview-pane'

/**
 * Starts WebContainer once the workbench is up, without holding anything back: the offline workspace serves until it
 * is ready (or for good, with the reason, when it cannot start). The boot code loads only here, on demand.
 */
export function createWebContainerStart(api: ClientApi): {
  info: Accessor<WorkspaceInfo | undefined>
  previews: Accessor<PreviewServer[]>
  /** Tries again (a project asked for a dev server): nothing while a boot runs or WebContainer serves. */
  start(): void
} {
  const [info, setInfo] = createSignal<WorkspaceInfo>()
  const [emitter, setEmitter] = createSignal<PreviewEmitter>()
  let booting = false
  const start = () => {
    if (booting || info()?.backend === 'webcontainer') return
    booting = true
    import('./start-webcontainer')
      .then(({ startWebContainer }) => startWebContainer(api))
      .then(
        (started) => {
          setInfo(started.info)
          if (started.previews) setEmitter(started.previews)
        },
        (error: unknown) => log.warn('tabcode: WebContainer could not be started', error),
      )
      .finally(() => (booting = false))
  }
  onMount(start)
  return { info, previews: createPreviewServers(emitter), start }
}
