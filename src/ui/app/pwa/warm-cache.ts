/** The message that asks the service worker to warm its asset cache (handled by public/sw-warm.js). */
export const WARM_MESSAGE = { type: 'tabcode:warm-assets' } as const

const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 2_000 })
    else setTimeout(resolve, 50)
  })

/**
 * Only the shell is precached: once the service worker is active and the page first idle, it is asked to fetch the
 * rest into its CacheFirst cache, so a user who goes offline later still has the editor, the terminal, the
 * runtimes… The service worker does the fetching (see public/sw-warm.js for why).
 */
export function warmInBackground(): void {
  void navigator.serviceWorker.ready
    .then(async (registration) => {
      await idle()
      registration.active?.postMessage(WARM_MESSAGE)
    })
    .catch(() => {
      // No service worker after all: nothing to warm.
    })
}
