import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

test('a chunk the service worker does not precache still loads offline once the first visit has warmed the cache', async ({ page, context }) => {
  const app = new Workbench(page)
  await app.open()
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null)
  // The settings dialog's chunk is not in the precache (only the shell is): the warm-up fetches it while idle.
  const chunk = await page.evaluate(async () => {
    const list = (await (await fetch('/asset-list.json')).json()) as { cache: string; assets: string[] }
    return { cache: list.cache, url: list.assets.find((asset) => /\/settings-dialog-[\w-]+\.js$/.test(asset))! }
  })
  expect(chunk.url).toBeTruthy()
  expect(await page.evaluate(async () => (await fetch('/sw.js')).text())).not.toContain(chunk.url.slice(1))
  // The warm-up is over once every listed asset is in the cache.
  await expect
    .poll(
      () =>
        page.evaluate(async ({ cache }) => {
          const list = (await (await fetch('/asset-list.json')).json()) as { assets: string[] }
          const store = await caches.open(cache)
          const found = await Promise.all(list.assets.map((url) => store.match(url, { ignoreVary: true })))
          return found.filter((response) => !response).length
        }, chunk),
      { timeout: 60_000 },
    )
    .toBe(0)

  // A later visit without a network: the dialog, never opened online, still opens.
  await context.setOffline(true)
  await page.reload()
  await app.ready()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
  await context.setOffline(false)
})
