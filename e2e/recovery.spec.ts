import { expect, test } from './testing/fixtures'

test('storage written by a newer version shows a recovery screen and is left untouched', async ({ page }) => {
  // Before the app starts, put a database of a far newer version where tabcode keeps its data.
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded-newer')) return
    sessionStorage.setItem('seeded-newer', '1')
    const request = indexedDB.open('tabcode', 990)
    request.onsuccess = () => request.result.close()
  })
  await page.goto('/')
  const screen = page.getByRole('main')
  await expect(screen.getByRole('heading', { name: "tabcode can't open its storage" })).toBeVisible()
  await expect(screen).toContainText('newer version of tabcode')
  await expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible()
  // Nothing offers to wipe data that a newer version wrote.
  await expect(screen.getByRole('button', { name: 'Delete local data and start over' })).toHaveCount(0)
  const version = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('tabcode')
        request.onsuccess = () => {
          resolve(request.result.version)
          request.result.close()
        }
      }),
  )
  expect(version).toBe(990)
})

test('a worker that fails to load shows what went wrong instead of a blank page', async ({ page }) => {
  await page.route(/\/assets\/worker-.*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }))
  await page.goto('/')
  await expect(page.getByRole('heading', { name: "tabcode couldn't start" })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible()
})
