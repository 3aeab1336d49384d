import { createSignal, onMount, type Accessor } from 'solid-js'
import { Workbox } from 'workbox-window'
import { log } from '../../../core/log'
import { warmInBackground } from './warm-cache'

export interface ServiceWorkerUpdate {
  /** True once a new version is installed and waiting for this page's permission to take over. */
  waiting: Accessor<boolean>
  /** Lets the waiting version take over, then reloads into it. */
  update(): void
}

/**
 * Registers the service worker (production builds only) and reports when an update waits. The SW is built with
 * `skipWaiting: false`, so a new version never swaps code under a running session; the user decides when.
 */
export function createServiceWorker(): ServiceWorkerUpdate {
  const [waiting, setWaiting] = createSignal(false)
  let workbox: Workbox | undefined

  onMount(() => {
    if (import.meta.env.DEV || !('serviceWorker' in navigator)) return
    workbox = new Workbox('/sw.js', { scope: '/' })
    workbox.addEventListener('waiting', () => setWaiting(true))
    // A tab can stay open for days: look for a new version whenever the user comes back to it.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void workbox?.update().catch(() => {})
    })
    // Installing fetches and stores the shell; done while the first screen mounts (the worker's boot, New session),
    // it took a core from the page on a 2-core machine and stretched those tasks past 50 ms (issue 18). So it waits
    // until the first screen has settled: SETTLE_MS after load, then an idle moment.
    void afterFirstScreen()
      .then(() => workbox?.register({ immediate: true }))
      .then((registration) => {
        // Only the shell is precached: fetch the rest while the app is idle, so it all works offline later.
        if (registration) warmInBackground()
      })
      .catch((error: unknown) => {
        // Offline support is lost, the app itself still works: worth a warning, not an error screen.
        log.warn('tabcode: service worker registration failed', error)
      })
  })

  return {
    waiting,
    update() {
      const current = workbox
      if (!current) return
      // Listen only now: with clientsClaim, the very first install also fires `controlling`, and that must not reload.
      current.addEventListener('controlling', () => window.location.reload())
      current.messageSkipWaiting()
    },
  }
}

/** SETTLE_MS after the load event, then the page's next idle moment (or IDLE_TIMEOUT_MS if it never is). */
function afterFirstScreen(): Promise<void> {
  const loaded = document.readyState === 'complete' ? Promise.resolve() : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }))
  return loaded
    .then(() => new Promise<void>((resolve) => setTimeout(resolve, SETTLE_MS)))
    .then(
      () =>
        new Promise<void>((resolve) => {
          if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS })
          else resolve()
        }),
    )
}

const SETTLE_MS = 1_500
const IDLE_TIMEOUT_MS = 3_000
