import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page } from '@playwright/test'
import { Workbench } from './workbench'

/** What a stored message looks like to a comparison that ignores ids. */
export type ComparableHistory = unknown[]

/**
 * Sharing and importing as a person does it (names from the share dialog, the "Open shared session" dialog, the
 * "Imported session" banner and "Import…"); counts and histories are read through the test hook.
 */
export class Sharing extends Workbench {
  readonly shareDialog: Locator
  readonly openDialog: Locator
  readonly importedBanner: Locator

  constructor(page: Page) {
    super(page)
    this.shareDialog = page.getByRole('dialog', { name: 'Share session' })
    this.openDialog = page.getByRole('dialog', { name: 'Open shared session' })
    this.importedBanner = page.getByRole('region', { name: 'Imported session' })
  }

  heading(title: string | RegExp): Locator {
    return this.main.getByRole('heading', { level: 1, name: title })
  }

  async openSession(title: string) {
    await this.sessionLink(new RegExp(`^${title}`)).click()
    await expect(this.heading(title)).toBeVisible()
  }

  async openShareDialog() {
    await this.main.getByRole('button', { name: 'Share', exact: true }).click()
    await expect(this.shareDialog).toBeVisible()
    // The size meter has read the session once it shows a number.
    await expect(this.shareDialog.getByText(/^[\d,]+ characters of 524,288$/)).toBeVisible()
  }

  /** Makes a link of the open session with the share dialog and closes it; returns the link. */
  async createLink(options: { passphrase?: string; fullOutputs?: boolean } = {}): Promise<string> {
    await this.openShareDialog()
    const dialog = this.shareDialog
    if (options.fullOutputs) await dialog.getByRole('checkbox', { name: 'Include tool outputs in full' }).check()
    if (options.passphrase !== undefined) {
      await dialog.getByRole('checkbox', { name: 'Protect with a passphrase' }).check()
      await dialog.getByRole('textbox', { name: 'Passphrase' }).fill(options.passphrase)
    }
    await dialog.getByRole('button', { name: 'Create link' }).click()
    const field = dialog.getByRole('textbox', { name: 'Share link' })
    await expect(field).toHaveValue(/#\/share\/v1e?\./)
    const url = await field.inputValue()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    return url
  }

  /** The export's list of binary workspace files it could not scan for secrets (shown with "Include workspace files"). */
  unscannedFiles(): Locator {
    return this.shareDialog.getByRole('group', { name: 'Not scanned for secrets' })
  }

  /**
   * Exports the open session with the share dialog; returns the saved file's name, path and text. `includeFiles` ticks
   * "Include workspace files"; `format` picks the file format (tabcode by default); `keepUnscanned` also includes those binary files (by part of their name), which are otherwise left out.
   */
  async exportSession(
    options: { format?: 'tabcode' | 'opencode'; includeFiles?: boolean; keepUnscanned?: string[] } = {},
  ): Promise<{ name: string; path: string; text: string; note: string }> {
    await this.openShareDialog()
    if (options.format) await this.shareDialog.getByRole('group', { name: 'Format' }).getByRole('radio', { name: new RegExp(`^${options.format}\\b`) }).check()
    if (options.includeFiles) await this.shareDialog.getByRole('checkbox', { name: 'Include workspace files' }).check()
    for (const name of options.keepUnscanned ?? []) await this.unscannedFiles().getByRole('checkbox', { name }).check()
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.shareDialog.getByRole('button', { name: 'Export as file', exact: true }).click(),
    ])
    const path = await download.path()
    const name = download.suggestedFilename()
    const status = this.shareDialog.getByRole('status')
    await expect(status).toContainText(`Saved ${name}`)
    const note = (await status.textContent()) ?? ''
    await this.shareDialog.getByRole('button', { name: 'Close' }).click()
    return { name, path, text: await readFile(path, 'utf8'), note }
  }

  /** Picks a file with "Import…" (the input behind it is labelled "Import file"). */
  async importFile(file: string | { name: string; buffer: Buffer }) {
    const input = this.page.getByLabel('Import file')
    await input.setInputFiles(typeof file === 'string' ? file : { name: file.name, mimeType: 'application/json', buffer: file.buffer })
  }

  /** Opens a share link the way a person does: in the address bar (a fresh page load, or a changed fragment). */
  async openLink(url: string) {
    await this.page.goto(url)
    await this.ready()
  }

  /**
   * Holds a write transaction over every store of the app's database from the page, so whatever the worker writes
   * next (an import) is still being written until `release` is called. Lets a test act "during" a write for sure.
   */
  async holdWrites(): Promise<{ release: () => Promise<void> }> {
    await this.page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const opening = indexedDB.open('tabcode')
          opening.onerror = () => reject(opening.error)
          opening.onsuccess = () => {
            const db = opening.result
            const names = [...db.objectStoreNames]
            const transaction = db.transaction(names, 'readwrite')
            const store = transaction.objectStore(names[0]!)
            const hold = window as unknown as { __releaseWrites?: () => void }
            let held = true
            hold.__releaseWrites = () => (held = false)
            // A transaction lives while it has requests: keep asking until released.
            const keep = () => {
              if (held) store.count().onsuccess = keep
            }
            keep()
            transaction.oncomplete = () => db.close()
            resolve()
          }
        }),
    )
    return { release: () => this.page.evaluate(() => (window as unknown as { __releaseWrites: () => void }).__releaseWrites()) }
  }

  alert(text: string | RegExp): Locator {
    return this.page.getByRole('alert').filter({ hasText: text })
  }

  status(text: string | RegExp): Locator {
    return this.page.getByRole('status').filter({ hasText: text })
  }

  /** Every stored session, of every project and depth. */
  async sessionCount(): Promise<number> {
    return this.page.evaluate(async () => (await window.__tabcode!.api.listSessions({ roots: false, archived: true, limit: 500 })).items.length)
  }

  /** The open session's id, from the fragment. */
  async openSessionID(): Promise<string> {
    await expect(this.page).toHaveURL(/#\/session\/ses_/)
    return decodeURIComponent(new URL(this.page.url()).hash.replace('#/session/', ''))
  }

  /** A session's messages and parts with every id replaced by a placeholder: equal means "equal but for ids". */
  async historyWithoutIds(sessionID: string): Promise<ComparableHistory> {
    return this.page.evaluate(async (sessionID) => {
      const page = await window.__tabcode!.api.pageMessages({ sessionID, limit: 500 })
      const ID = /^(ses|msg|prt)_[0-9a-f]{16}[0-9A-Za-z]{10}$/
      const blank = (value: unknown): unknown => {
        if (typeof value === 'string') return ID.test(value) ? '<id>' : value
        if (Array.isArray(value)) return value.map(blank)
        if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, blank(inner)]))
        return value
      }
      return blank(page.messages) as unknown[]
    }, sessionID)
  }
}
