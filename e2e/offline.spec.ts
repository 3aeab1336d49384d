import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { Workbench } from './page-models/workbench'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './testing/fixtures-data'
import { ModelScript, streamText } from './testing/model-script'
import { showWorkspace } from './page-models/workbench'

test('after one visit the app, its isolation and every stored session work offline', async ({ page, context }) => {
  const app = new Workbench(page)
  await app.open()
  // The service worker takes control on the first visit (clientsClaim), so the shell is cached from here on.
  await app.waitUntilAvailableOffline()
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

test('the service worker precaches the app but not the benchmark’s data, which still loads when asked for', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  const serviceWorker = await page.evaluate(async () => (await fetch('/sw.js')).text())
  // The precache manifest lists the shell and its chunks by URL.
  expect(serviceWorker).toContain('"index.html"')
  expect(serviceWorker).toMatch(/"assets\/[^"]+\.js"/)
  expect(serviceWorker).not.toContain('bench-data')
  // `npm run bench` loads the chunk on demand through the test hook.
  const loaded = await page.evaluate(async () => Object.keys((await window.__tabcode!.benchData!()) as object).sort())
  expect(loaded).toEqual(expect.arrayContaining(['realisticFixture', 'tenThousandPartsFile']))
})

test('the manifest makes the app installable with 192 and 512 px icons', async ({ page }) => {
  await page.goto('/')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBeTruthy()
  const manifest = await page.evaluate(async (url) => (await fetch(url!)).json(), href)
  expect(manifest).toMatchObject({ name: 'tabcode', start_url: '/', display: 'standalone' })
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[]
  for (const size of [192, 512]) {
    const icon = icons.find((entry) => entry.sizes === `${size}x${size}` && entry.purpose !== 'maskable')
    expect(icon, `a ${size} px icon`).toBeTruthy()
    const dimensions = await page.evaluate(async (src) => {
      const bitmap = await createImageBitmap(await (await fetch(src)).blob())
      return [bitmap.width, bitmap.height]
    }, icon!.src)
    expect(dimensions).toEqual([size, size])
  }
  expect(icons.some((entry) => entry.purpose === 'maskable')).toBe(true)
})

test('offline before the engine was ever downloaded: history and files open, a prompt says why it cannot run, and runs once back online', async ({ page, context }) => {
  const model = new ModelScript()
  await model.reset()
  const app = new Conversation(page)
  await app.start('Files made online')
  await app.seed((projectID) => everyPartTypeFixture({ projectID }))
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files', exact: true }).click()
  await panel.getByRole('button', { name: 'New file', exact: true }).click()
  await panel.getByRole('textbox', { name: /^New file name in / }).fill('notes.txt')
  await page.keyboard.press('Enter')
  const notes = panel.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'notes.txt', exact: true })
  await expect(notes).toBeVisible()

  // The worker's engine is not precached (only the shell is): as if the user went offline before the warm-up got
  // to it, it is in no cache and the network can't give it. (The rest is warmed first: the Files tab opened above may
  // have loaded before the service worker controlled the page, and this is about the engine alone.)
  await app.waitUntilAvailableOffline()
  const engine = /\/assets\/engine-[\w-]{8}\.js$/
  expect(await page.evaluate(async () => (await fetch('/sw.js')).text())).not.toMatch(/assets\/engine-[\w-]{8}\.js/)
  await context.route(engine, (route) => route.abort('internetdisconnected'))
  await page.evaluate(async (source) => {
    const list = (await (await fetch('/asset-list.json')).json()) as { cache: string; assets: string[] }
    const cache = await caches.open(list.cache)
    for (const url of list.assets) if (new RegExp(source).test(url)) await cache.delete(url, { ignoreVary: true })
  }, engine.source)
  await context.setOffline(true)
  await page.reload()
  await app.ready()

  await expect(app.sessionLinks()).toHaveCount(2)
  await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
  await expect(app.messages).toContainText(T.userText)
  await app.sessionLink(/^Files made online/).click()
  await expect(app.main.getByRole('heading', { level: 1, name: 'Files made online' })).toBeVisible()
  await showWorkspace(page)
  await panel.getByRole('tab', { name: 'Files', exact: true }).click()
  await expect(notes).toBeVisible()

  await app.prompt.fill('Are you there?')
  await app.prompt.press('Enter')
  await expect(app.main.getByText(/hasn't been downloaded yet\. Reconnect once to finish the download/)).toBeVisible()
  await expect(app.prompt).toHaveValue('Are you there?')

  // Back online, the same prompt loads the engine (the failed import was not kept) and gets its answer.
  await context.unroute(engine)
  await context.setOffline(false)
  await model.push([streamText('Here again.')], { model: 'mock-model' })
  await app.prompt.press('Enter')
  await expect(app.replies().last()).toContainText('Here again.')
})
