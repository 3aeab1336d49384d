import { expect, test } from './fixtures'
import { Workbench } from './page-models/workbench'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './support/fixtures-data'

test('after one visit the app, its isolation and every stored session work offline', async ({ page, context }) => {
  const app = new Workbench(page)
  await app.open()
  // The service worker takes control on the first visit (clientsClaim), so the shell is cached from here on.
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null)
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true)
  await app.seed((projectID) => everyPartTypeFixture({ projectID }))
  await app.newSession()
  await app.rename(/New session · /, 'Written before going offline')

  await context.setOffline(true)
  const reachable = await page.evaluate(() =>
    fetch('/not-cached-' + Date.now()).then(
      () => true,
      () => false,
    ),
  )
  expect(reachable).toBe(false)

  await page.reload()
  await app.ready()
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true)
  await expect(app.sessionLinks()).toHaveCount(2)
  await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
  await expect(app.messages).toContainText(T.userText)
  await expect(app.messages).toContainText(T.summaryText)
  await app.sessionLink(/^Written before going offline/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Written before going offline' })).toBeVisible()
  await context.setOffline(false)
})
