import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

const serviceWorkerFile = fileURLToPath(new URL('../dist/sw.js', import.meta.url))

test('a new version waits until the user accepts the update prompt', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null)
  await expect(page.getByRole('button', { name: 'Reload to update' })).toHaveCount(0)
  await app.newSession()
  await app.rename(/New session · /, 'Kept across the update')

  // Publish a "new build": the preview server serves dist/ from disk, so a changed sw.js is a new version.
  const original = await readFile(serviceWorkerFile, 'utf8')
  try {
    await writeFile(serviceWorkerFile, `${original}\n// next build ${Date.now()}\n`)
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      await registration?.update()
    })
    const accept = page.getByRole('button', { name: 'Reload to update' })
    await expect(accept).toBeVisible()
    // Until accepted, the old version keeps control and nothing reloads.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting != null)).toBe(true)

    await Promise.all([page.waitForEvent('load'), accept.click()])
    await app.ready()
    await expect(page.getByRole('button', { name: 'Reload to update' })).toHaveCount(0)
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull()
    await expect(app.sessionLink(/^Kept across the update/)).toBeVisible()
  } finally {
    await writeFile(serviceWorkerFile, original)
  }
})
