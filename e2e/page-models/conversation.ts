import { expect, type Locator, type Page } from '@playwright/test'
import { connectMockModel, type MockPrices, type MockProviderType } from '../testing/connect-model'
import { Workbench } from './workbench'

/** A session being talked to: the prompt, its buttons and the replies, found by role and label. */
export class Conversation extends Workbench {
  readonly status: Locator

  constructor(page: Page) {
    super(page)
    this.status = page.getByRole('status', { name: 'Session status' })
  }

  /** Opens the app with the scripted server as its provider (of `type`, with `key` and `prices`, else the usual ones), and a fresh session titled `title` when given. */
  async start(title?: string, options: { key?: string; type?: MockProviderType; prices?: MockPrices } = {}) {
    await this.open()
    await connectMockModel(this.page, {
      ...(options.key ? { key: options.key } : {}),
      ...(options.type ? { type: options.type } : {}),
      ...(options.prices ? { prices: options.prices } : {}),
    })
    // The seed went around the UI through the RPC, and the UI's provider list refreshes on load and when the tab
    // regains focus (as after a provider was set up in another tab): a focus event, not a second load of the app.
    await this.page.evaluate(() => window.dispatchEvent(new Event('focus')))
    await this.newSession()
    await expect(this.page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/\/mock-model$/)
    if (title) await this.rename(/New session · /, title)
  }

  /** A conversation on `page`, started as `start` does without a title. */
  static async started(page: Page): Promise<Conversation> {
    const app = new Conversation(page)
    await app.start()
    return app
  }

  async send(text: string) {
    await this.prompt.fill(text)
    await this.prompt.press('Enter')
    await expect(this.prompt).toHaveValue('')
  }

  async queue(text: string) {
    await this.prompt.fill(text)
    await this.page.getByRole('button', { name: 'Queue', exact: true }).click()
    await expect(this.prompt).toHaveValue('')
  }

  /**
   * Puts the mouse over the middle of the conversation's viewport, where a reader's would be, without scrolling.
   * `messages.hover()` would first scroll the log into view; while a reply streams the log is moving, and
   * Playwright's retries scroll it to other alignments (its top, a page of older messages away).
   */
  async pointAtMessages() {
    const point = await this.messages.evaluate((log) => {
      let scroller: HTMLElement | null = log.parentElement
      while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement
      const box = (scroller ?? log).getBoundingClientRect()
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    })
    await this.page.mouse.move(point.x, point.y)
  }

  replies(): Locator {
    return this.messages.getByRole('article', { name: /^Assistant/ })
  }

  prompts(): Locator {
    return this.messages.getByRole('article', { name: 'You' })
  }

  stopButton(): Locator {
    return this.page.getByRole('button', { name: 'Stop', exact: true })
  }

  /** Stop, or the same button once pressed ("Stopping…"): there until the turn has ended. */
  stopControl(): Locator {
    return this.page.getByRole('button', { name: /^(Stop|Stopping…)$/ })
  }

  async idle() {
    await expect(this.stopControl()).toHaveCount(0)
  }
}
