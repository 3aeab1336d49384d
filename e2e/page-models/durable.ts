import { expect, type CDPSession, type Locator, type Worker } from '@playwright/test'
import { Conversation } from './conversation'

/**
 * Durable history as a person meets it: the sidebar's full-text search, the storage status in the sidebar's foot,
 * the app's problem banner. A full disk has no UI to make it, so it is simulated with the DevTools protocol.
 */
export class Durable extends Conversation {
  get searchBox(): Locator {
    return this.sessions.getByRole('searchbox', { name: 'Search sessions' })
  }

  get searchResults(): Locator {
    return this.sessions.getByRole('list', { name: 'Search results' })
  }

  searchResult(name: string | RegExp): Locator {
    return this.searchResults.getByRole('link', { name })
  }

  /** Types a query and waits for its answer (results, or the "No matches" note). */
  async search(text: string) {
    await this.searchBox.fill(text)
    await expect(this.searchResults.or(this.sessions.getByText(/^No matches for/))).toBeVisible()
  }

  get storageToggle(): Locator {
    return this.page.getByRole('button', { name: /^Storage\b/ })
  }

  get storage(): Locator {
    return this.page.getByRole('region', { name: 'Storage' })
  }

  async openStorage() {
    if ((await this.storageToggle.getAttribute('aria-expanded')) !== 'true') await this.storageToggle.click()
    await expect(this.storage).toBeVisible()
  }

  /** The app-wide problem banner ("Couldn't …: …"). */
  get problem(): Locator {
    return this.page.locator('.banner[role="alert"]')
  }

  async dismissProblem() {
    await this.problem.getByRole('button', { name: 'Dismiss' }).click()
    await expect(this.problem).toHaveCount(0)
  }

  // ── a simulated full disk ─────────────────────────────────────────────────────────────────────────────────────

  private cdp?: CDPSession

  private async origin(): Promise<string> {
    return new URL(this.page.url()).origin
  }

  /**
   * Gives the app's origin a quota below what it already uses, so every write that adds a byte is refused. Chromium's
   * IndexedDB keeps the space it last learned it had for about 30 s, so this waits until a write that changes nothing
   * (a stored session put back as it is) is refused. `navigator.storage.estimate()` does not see the override.
   */
  async fillDisk(quotaBytes = 1) {
    this.cdp ??= await this.page.context().newCDPSession(this.page)
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: await this.origin(), quotaSize: quotaBytes })
    await expect
      .poll(
        () =>
          this.page.evaluate(async () => {
            const api = window.__tabcode!.api
            const [row] = (await api.listSessions({ limit: 1 })).items
            if (!row) throw new Error('fillDisk needs one stored session to probe with')
            return api.writeFixture({ sessions: [row] }).then(
              () => 'written',
              (error: Error) => error.name,
            )
          }),
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe('StorageFullError')
  }

  /**
   * Starts watching, inside the app's worker, for the first write the browser refuses for lack of space (a
   * transaction aborted with QuotaExceededError) and for promise rejections nobody handled, in the worker and the page.
   */
  async watchWrites() {
    const worker = this.page.workers().find((candidate) => /worker/.test(candidate.url()))
    if (!worker) throw new Error('the app worker is not running')
    this.worker = worker
    const install = () => {
      const scope = globalThis as typeof globalThis & { __writes?: WriteWatch }
      if (scope.__writes) return
      const watch: WriteWatch = { refusedAt: 0, unhandled: [] }
      scope.__writes = watch
      scope.addEventListener('unhandledrejection', (event) => {
        const reason = event.reason as { name?: string; message?: string } | undefined
        watch.unhandled.push(`${reason?.name ?? 'rejection'}: ${reason?.message ?? String(event.reason)}`)
      })
      if (typeof IDBObjectStore === 'undefined') return
      // Dexie bound its database's `transaction` when it opened, so the writes themselves are watched instead.
      const watched = new WeakSet<IDBTransaction>()
      const store = IDBObjectStore.prototype
      for (const name of ['put', 'add', 'delete', 'clear'] as const) {
        const write = store[name] as (...args: unknown[]) => IDBRequest
        ;(store as unknown as Record<string, unknown>)[name] = function (this: IDBObjectStore, ...args: unknown[]) {
          const transaction = this.transaction
          if (!watched.has(transaction)) {
            watched.add(transaction)
            transaction.addEventListener('abort', () => {
              if (transaction.error?.name === 'QuotaExceededError' && watch.refusedAt === 0) watch.refusedAt = Date.now()
            })
          }
          return write.apply(this, args)
        }
      }
    }
    await worker.evaluate(install)
    await this.page.evaluate(install)
  }

  /** What `watchWrites` saw: when the worker's first write was refused (0: none yet), and the unhandled rejections. */
  async writes(): Promise<{ refusedAt: number; unhandled: { worker: string[]; page: string[] } }> {
    type Scope = typeof globalThis & { __writes: WriteWatch }
    const read = () => structuredClone((globalThis as Scope).__writes)
    const inWorker = await this.worker!.evaluate(read)
    const inPage = await this.page.evaluate(read)
    return { refusedAt: inWorker.refusedAt, unhandled: { worker: inWorker.unhandled, page: inPage.unhandled } }
  }

  private worker?: Worker

  /** Back to the browser's own quota. */
  async freeDisk() {
    this.cdp ??= await this.page.context().newCDPSession(this.page)
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: await this.origin() })
  }
}

interface WriteWatch {
  refusedAt: number
  unhandled: string[]
}
