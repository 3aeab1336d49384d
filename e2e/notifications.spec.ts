import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, MOCK_MODEL_SERVER_URL, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

/** A notification the page constructed, as the test reads it back. */
interface Shown {
  title: string
  body: string
  tag: string
}

declare global {
  interface Window {
    /** Set by the init script below: what the page showed and asked, and a way to hide or show the page. */
    __notify?: { shown: Shown[]; clicks: Array<() => void>; permissionRequests: number; setVisibility: (state: DocumentVisibilityState) => void }
  }
}

test.beforeEach(async ({ context }) => {
  await model.reset()
  // The app calls the browser's own Notification API; this wraps it to record each notification the page makes and
  // each time it asks for the permission. Headless Chromium keeps every page visible (a second page brought to the
  // front leaves the first one "visible"), so the page's visibility is set here and announced the way the browser does.
  await context.addInitScript(() => {
    const Real = window.Notification
    const state = { visibility: 'visible' as DocumentVisibilityState }
    const record: NonNullable<Window['__notify']> = {
      shown: [],
      clicks: [],
      permissionRequests: 0,
      setVisibility: (next) => {
        state.visibility = next
        document.dispatchEvent(new Event('visibilitychange'))
      },
    }
    class Recorded extends Real {
      constructor(title: string, options: NotificationOptions = {}) {
        super(title, options)
        record.shown.push({ title, body: options.body ?? '', tag: options.tag ?? '' })
        record.clicks.push(() => this.dispatchEvent(new Event('click')))
      }
      static override requestPermission(...args: Parameters<typeof Notification.requestPermission>) {
        record.permissionRequests += 1
        return Real.requestPermission(...args)
      }
    }
    window.Notification = Recorded as typeof Notification
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => state.visibility })
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => state.visibility === 'hidden' })
    window.__notify = record
  })
})

const shown = (page: Page) => page.evaluate(() => window.__notify!.shown)
const permissionRequests = (page: Page) => page.evaluate(() => window.__notify!.permissionRequests)
const setVisibility = (page: Page, state: DocumentVisibilityState) => page.evaluate((next) => window.__notify!.setVisibility(next), state)

/** Settings → Notifications, as a user turns the master switch on (or a kind off) and closes the dialog. */
async function notificationSettings(page: Page, change: (settings: ReturnType<Page['getByRole']>) => Promise<void>) {
  await page.getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await change(settings)
  await settings.getByRole('button', { name: 'Close' }).click()
}

const turnOn = (page: Page) =>
  notificationSettings(page, async (settings) => {
    await settings.getByRole('switch', { name: 'Notify me when tabcode is in the background' }).click()
    await expect(settings.getByRole('switch', { name: 'Notify me when tabcode is in the background' })).toBeChecked()
  })

test('a turn that ends in a hidden tab is notified with its session title; the title counts it; the click opens the session', async ({ page, context }) => {
  await context.grantPermissions(['notifications'])
  await model.push([streamText('The login works now.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Fix the login')
  // Nothing asked at boot: the permission is asked when the user turns the switch on.
  expect(await permissionRequests(page)).toBe(0)
  await turnOn(page)
  expect(await permissionRequests(page)).toBe(1)

  await setVisibility(page, 'hidden')
  await app.send('Make the login work')
  await expect.poll(() => shown(page)).toEqual([{ title: '“Fix the login” finished', body: 'The turn is done.', tag: expect.stringMatching(/^tabcode:ses_\w+:turnEnded$/) }])
  await expect(page).toHaveTitle('(1) tabcode')

  // The user went to another session meanwhile; the notification brings back the one it is about.
  await app.newSession()
  await expect(app.sessionLink(/^Fix the login/)).not.toHaveAttribute('aria-current', 'page')
  await page.evaluate(() => window.__notify!.clicks[0]!())
  await expect(app.sessionLink(/^Fix the login/)).toHaveAttribute('aria-current', 'page')
  await expect(app.replies().last()).toContainText('The login works now.')

  // Back in view: the mark goes.
  await setVisibility(page, 'visible')
  await expect(page).toHaveTitle('tabcode')
})

test('a permission ask that waits in a hidden tab is notified with what it asks, and marks the title', async ({ page, context }) => {
  await context.grantPermissions(['notifications'])
  await model.push([toolCalls([{ id: 'call_fetch', name: 'webfetch', args: { url: `${MOCK_MODEL_SERVER_URL}/page` } }])], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Read the docs')
  await turnOn(page)

  await setVisibility(page, 'hidden')
  await app.send('Read that page')
  await expect
    .poll(() => shown(page))
    .toEqual([{ title: '“Read the docs” needs permission', body: expect.stringMatching(/^Allow fetching from 127\.0\.0\.1:\d+\?$/), tag: expect.stringMatching(/:waiting$/) }])
  await expect(page).toHaveTitle('(1) tabcode')
  await setVisibility(page, 'visible')
  await expect(page).toHaveTitle('tabcode')
  await expect(page.getByRole('dialog', { name: /^Allow fetching from 127\.0\.0\.1:\d+\?$/ })).toBeVisible()
})

test('a kind turned off is not notified, while the title still counts it', async ({ page, context }) => {
  await context.grantPermissions(['notifications'])
  await model.push([streamText('Done.'), toolCalls([{ id: 'call_fetch', name: 'webfetch', args: { url: `${MOCK_MODEL_SERVER_URL}/page` } }])], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Quiet turns')
  await turnOn(page)
  await notificationSettings(page, async (settings) => {
    await settings.getByRole('checkbox', { name: 'A turn finishes or is stopped' }).uncheck()
    await expect(settings.getByText('A turn finishes or is stopped: not notified.')).toBeVisible()
  })

  await setVisibility(page, 'hidden')
  await app.send('First')
  await expect(page).toHaveTitle('(1) tabcode')
  await app.idle()
  // A kind still on, told after the first: had the ended turn been notified, it would be in the list before it.
  await app.send('Second')
  await expect(page).toHaveTitle('(2) tabcode')
  await expect.poll(async () => (await shown(page)).map((notice) => notice.title)).toEqual(['“Quiet turns” needs permission'])
})

test('a browser that blocks notifications: the switch stays off, Settings says how to allow them, the title still counts', async ({ page }) => {
  await model.push([streamText('Done anyway.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Blocked')
  await notificationSettings(page, async (settings) => {
    const master = settings.getByRole('switch', { name: 'Notify me when tabcode is in the background' })
    await master.click()
    // Headless Chromium answers a permission request it was not granted with "denied".
    await expect(settings.getByRole('alert')).toHaveText('The browser blocks notifications for this site.')
    await expect(settings.getByText(/Your browser blocks notifications for this site\. To allow them, open the site's settings/)).toBeVisible()
    await expect(master).not.toBeChecked()
  })
  expect(await permissionRequests(page)).toBe(1)

  await setVisibility(page, 'hidden')
  await app.send('Go on')
  await expect(page).toHaveTitle('(1) tabcode')
  await setVisibility(page, 'visible')
  await expect(page).toHaveTitle('tabcode')
})

test('several tabs of the app, all hidden: one notification for what happened, not one per tab', async ({ page, context }) => {
  await context.grantPermissions(['notifications'])
  await model.push([streamText('Both tabs heard this.'), toolCalls([{ id: 'call_fetch', name: 'webfetch', args: { url: `${MOCK_MODEL_SERVER_URL}/page` } }])], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Two tabs')
  await turnOn(page)
  const other = new Conversation(await context.newPage())
  await other.open()

  await setVisibility(other.page, 'hidden')
  await setVisibility(page, 'hidden')
  await app.send('First')
  await expect(other.page).toHaveTitle('(1) tabcode')
  await app.idle()
  await app.send('Second')
  await expect(page).toHaveTitle('(2) tabcode')
  await expect(other.page).toHaveTitle('(2) tabcode')
  // Whichever tab told, each thing was told once: the ended turn, then the ask behind it.
  const everywhere = async () => [...(await shown(page)), ...(await shown(other.page))].map((notice) => notice.title).sort()
  await expect.poll(everywhere).toEqual(['“Two tabs” finished', '“Two tabs” needs permission'])
})
