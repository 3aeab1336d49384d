import { expect, type Locator, type Page } from '@playwright/test'
import type { Fixture } from '../../src/store/fixture'
import { NARROW_QUERY, PANEL_STORAGE_KEY } from '../../src/ui/workspace/panel-layout'

/** The workbench as a person sees it: found by role and label only. */
export class Workbench {
  readonly sessions: Locator
  readonly main: Locator
  readonly messages: Locator
  readonly prompt: Locator

  constructor(readonly page: Page) {
    this.sessions = page.getByRole('navigation', { name: 'Sessions' })
    this.main = page.getByRole('main')
    this.messages = page.getByRole('log', { name: 'Messages' })
    this.prompt = page.getByRole('combobox', { name: 'Prompt' })
  }
  /**
   * Waits until the app works offline: the service worker controls the page and has warmed its cache with every
   * asset the build lists beyond the precached shell (public/sw-warm.js). A person who goes offline a moment after a
   * first visit could find a chunk missing; the tests that go offline start from a visit that is complete.
   */
  async waitUntilAvailableOffline() {
    await this.page.waitForFunction(() => navigator.serviceWorker?.controller != null)
    await expect
      .poll(
        () =>
          this.page.evaluate(async () => {
            const list = (await (await fetch('/asset-list.json', { cache: 'no-store' })).json()) as { cache: string; assets: string[] }
            const cache = await caches.open(list.cache)
            const found = await Promise.all(list.assets.map((url) => cache.match(url, { ignoreVary: true })))
            return found.filter((response) => !response).length
          }),
        { timeout: 60_000, message: 'assets still missing from the offline cache' },
      )
      .toBe(0)
  }


  async open(path = '/') {
    await this.page.goto(path)
    await this.ready()
  }

  /** The app is ready when the worker opened storage and the sidebar is on screen. */
  async ready() {
    await this.page.waitForFunction(() => window.__tabcode !== undefined)
    await expect(this.sessions).toBeVisible()
  }

  sessionLink(name: string | RegExp): Locator {
    return this.sessions.getByRole('link', { name })
  }

  /** The top-level sessions (subagent sessions are listed under their parent, named "Subagent session: …"). */
  sessionLinks(): Locator {
    return this.sessions.getByRole('link', { name: /^(?!Subagent session: )/ })
  }

  childSessionLink(name: RegExp): Locator {
    return this.sessions.getByRole('link', { name: new RegExp(`^Subagent session: ${name.source.replace(/^\^/, '')}`) })
  }

  async newSession() {
    const before = await this.sessionLinks().count()
    await this.sessions.getByRole('button', { name: 'New session', exact: true }).click()
    await expect(this.sessionLinks()).toHaveCount(before + 1)
  }

  async rename(current: string | RegExp, next: string) {
    const name = typeof current === 'string' ? `Rename session "${current}"` : new RegExp(`^Rename session "${current.source}`)
    await this.sessions.getByRole('button', { name }).click()
    const field = this.sessions.getByRole('textbox', { name: 'Session title' })
    await field.fill(next)
    await field.press('Enter')
    await expect(this.sessionLink(new RegExp(`^${escape(next)}`))).toBeVisible()
  }

  /** Writes rows through the worker's test hook, in the project the sidebar lists. */
  async seed(build: (projectID: string) => Fixture) {
    const projectID = await this.page.evaluate(() => window.__tabcode!.projectID)
    const fixture = build(projectID)
    const before = await this.sessionLinks().count()
    await this.page.evaluate((rows) => window.__tabcode!.api.writeFixture(rows), fixture)
    // Until the sidebar lists them: a step counting its links next (newSession) must not count them arriving.
    const listed = fixture.sessions.filter((session) => !session.parentID && session.projectID === projectID && session.time.archived === undefined).length
    await expect.poll(() => this.sessionLinks().count()).toBeGreaterThanOrEqual(before + listed)
    return fixture
  }
}

export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The workspace panel, shown. Whether it starts open is decided once, as the page starts, from two things this reads
 * back from the page (the app's rule in ui/workspace/create-panel-state.ts): a narrow screen starts with the
 * conversation, a wide one with the panel unless the reader closed it last time. Nothing else opens or closes it, so
 * the toggle is pressed exactly when the panel starts closed, never after looking at what happens to be on screen
 * (that raced with the panel's first frame). For a page whose panel the test has not toggled yet.
 */
export async function showWorkspace(page: Page): Promise<Locator> {
  const panel = page.getByRole('complementary', { name: 'Workspace' })
  const startsClosed = await page.evaluate(
    ({ narrow, key }) => matchMedia(narrow).matches || localStorage.getItem(key) === 'closed',
    { narrow: NARROW_QUERY, key: PANEL_STORAGE_KEY },
  )
  if (startsClosed) await page.getByRole('button', { name: 'Show workspace' }).click()
  await expect(panel).toBeVisible()
  return panel
}
