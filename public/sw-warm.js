// The warm-up of the asset cache after a first visit, run inside the service worker that vite-plugin-pwa generates
// (vite.config.ts loads this file with Workbox's `importScripts`). It is plain JavaScript in public/ because a
// generated service worker can only load classic scripts by URL. It runs here, not in the page, so that a fetch
// that fails because the network went away mid-way is the service worker's business (the page's console stays
// clean) and so that the warm-up goes on while the page navigates.
//
// Every asset the build listed in /asset-list.json that is not cached yet is fetched into the same cache the
// CacheFirst route reads, in the build's order (what the app loads first, first), a few at a time so the app's own
// fetches are not crowded out. A failure ends it quietly; the next visit goes on where it stopped.
/* eslint-env serviceworker */
const TABCODE_WARM_LANES = 3

async function tabcodeWarmAssets() {
  const list = await (await fetch('/asset-list.json', { cache: 'no-store' })).json()
  const cache = await caches.open(list.cache)
  const queue = [...list.assets]
  let fetched = 0
  const lane = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (await cache.match(url, { ignoreVary: true })) continue
      const response = await fetch(url)
      if (!response.ok) throw new Error(`${url} answered ${response.status}`)
      await cache.put(url, response)
      fetched++
    }
  }
  await Promise.all(Array.from({ length: TABCODE_WARM_LANES }, lane))
  return fetched
}

let tabcodeWarming
self.addEventListener('message', (event) => {
  if (!event.data || event.data.type !== 'tabcode:warm-assets') return
  // Two tabs asking at once share one warm-up.
  if (!tabcodeWarming) {
    tabcodeWarming = tabcodeWarmAssets()
      .catch(() => 0)
      .finally(() => {
        tabcodeWarming = undefined
      })
  }
  event.waitUntil(tabcodeWarming)
})
