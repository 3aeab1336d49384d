import { createComputed, createSignal, onCleanup, type Accessor } from 'solid-js'
import type { PreviewEmitter, PreviewServer } from '../../workspace/webcontainer/preview'

/**
 * The servers a WebContainer has open, as a signal for the preview pane. `emitter` is absent until (and unless)
 * WebContainer boots; each emitter is listened to while it is the current one. Owner-bound.
 */
export function createPreviewServers(emitter: Accessor<PreviewEmitter | undefined>): Accessor<PreviewServer[]> {
  const [servers, setServers] = createSignal<PreviewServer[]>([])
  createComputed(() => {
    const current = emitter()
    setServers(current?.servers() ?? [])
    if (!current) return
    onCleanup(current.subscribe(() => setServers(current.servers())))
  })
  return servers
}
