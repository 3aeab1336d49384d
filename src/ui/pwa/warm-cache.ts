/** What the build lists in /asset-list.json: the assets the service worker does not precache, and their cache. */
export interface AssetList {
  cache: string
  assets: string[]
}

export interface WarmDependencies {
  list: () => Promise<AssetList>
  open: (cacheName: string) => Promise<Pick<Cache, 'match' | 'add'>>
  /** How many fetches run at once: a few, so the warm-up is quick without crowding out what the app fetches. */
  parallel?: number
}

/**
 * Puts every asset that is not in the precache into the service worker's CacheFirst cache, in the build's order
 * (what the app loads first, first), the ones already there skipped, so a user who goes offline later still has
 * the editor, the terminal, the runtimes… A failure (offline, the server gone) ends it quietly: the next visit goes
 * on where it stopped. Returns how many it fetched.
 */
export async function warmAssets(dependencies: WarmDependencies): Promise<number> {
  const { cache: name, assets } = await dependencies.list()
  const cache = await dependencies.open(name)
  const queue = [...assets]
  let fetched = 0
  const lane = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (await cache.match(url, { ignoreVary: true })) continue
      await cache.add(url)
      fetched++
    }
  }
  await Promise.all(Array.from({ length: dependencies.parallel ?? 3 }, lane))
  return fetched
}

const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 2_000 })
    else setTimeout(resolve, 50)
  })

/** The browser's warm-up, once the service worker is active and the page first idle. */
export function warmInBackground(): void {
  void navigator.serviceWorker.ready
    .then(idle)
    .then(() =>
      warmAssets({
        list: async () => (await fetch('/asset-list.json', { cache: 'no-store' })).json() as Promise<AssetList>,
        open: (name) => caches.open(name),
      }),
    )
    .catch(() => {
      // Offline or interrupted: what is cached stays, and the next visit fetches the rest.
    })
}
