import { PROTOCOL_VERSION } from '../core/protocol'
import type { SyncChannel, SyncMessage } from './sync-service'

export const SYNC_CHANNEL = 'tabcode:sync'

const TYPES: ReadonlySet<string> = new Set<SyncMessage['type']>(['changed', 'now', 'status'])

/** Sync's messages between the workers of all open tabs; only the tab that runs sync acts on them. */
export function broadcastSync(): SyncChannel & { close(): void } {
  const channel = new BroadcastChannel(SYNC_CHANNEL)
  const listeners = new Set<(message: SyncMessage) => void>()
  channel.onmessage = (event) => {
    const data = event.data as { protocol?: unknown; type?: unknown }
    if (data?.protocol !== PROTOCOL_VERSION || typeof data.type !== 'string' || !TYPES.has(data.type)) return
    for (const listener of listeners) listener({ type: data.type as SyncMessage['type'] })
  }
  return {
    post: (message) => channel.postMessage({ protocol: PROTOCOL_VERSION, ...message }),
    listen: (listener) => void listeners.add(listener),
    close: () => channel.close(),
  }
}
