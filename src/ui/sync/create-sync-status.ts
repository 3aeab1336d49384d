import { createSignal, onCleanup, type Accessor } from 'solid-js'
import type { SessionEvent } from '../../core/event'
import type { ClientApi } from '../../core/protocol'
import type { SyncStatus } from '../../core/sync-state'
import { log } from '../../core/log'

export type SyncStatusApi = Pick<ClientApi, 'syncStatus' | 'syncNow'>

export interface SyncStatusStore {
  /** Undefined until the worker answered the first read. */
  status: Accessor<SyncStatus | undefined>
  /** The status once it is known (the first read, or an event that came before it). */
  ready: Promise<SyncStatus>
  /** Takes the status an action answered with, ahead of its event. */
  set(status: SyncStatus): void
}

/**
 * Sync's state for the page: read once at start, then every `sync.status` event (one tab runs sync, every tab shows
 * it). An event that arrives before the first read answers wins over it, since it is newer.
 */
export function createSyncStatus(api: SyncStatusApi, listen: (handler: (event: SessionEvent) => void) => () => void): SyncStatusStore {
  const [status, setStatus] = createSignal<SyncStatus>()
  let resolve!: (status: SyncStatus) => void
  const ready = new Promise<SyncStatus>((done) => (resolve = done))
  const set = (next: SyncStatus) => {
    setStatus(next)
    resolve(next)
  }
  onCleanup(
    listen((event) => {
      if (event.type === 'sync.status') set(event.status)
    }),
  )
  // Back online, the page asks for a round at once. The worker watches the network too, but its `online` event is not
  // dispatched everywhere: under Chromium's network emulation a dedicated worker's `navigator.onLine` flips without
  // one (seen driving e2e/sync.spec.ts), while the page's window gets it.
  if (typeof window !== 'undefined') {
    const onOnline = () => {
      if (status()?.state !== 'offline') return
      api.syncNow().then(set, (error: unknown) => log.warn('tabcode: could not restart sync after going online', error))
    }
    window.addEventListener('online', onOnline)
    onCleanup(() => window.removeEventListener('online', onOnline))
  }
  api.syncStatus().then(
    (first) => {
      if (!status()) set(first)
    },
    (error: unknown) => {
      log.warn('tabcode: could not read the sync status', error)
      // Whoever waits on it (opening a session) goes on as without sync; a later event still shows the truth.
      resolve({ type: 'sync-status', state: 'off', pending: 0 })
    },
  )
  return { status, ready, set }
}

/** Whether a session opened with no messages here should fetch them from the server. */
export function fetchesOnDemand(status: SyncStatus): boolean {
  return status.state !== 'off' && status.setup?.messages === 'on-demand'
}
