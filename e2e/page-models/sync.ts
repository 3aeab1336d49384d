import { expect, type Locator, type Page } from '@playwright/test'
import { SYNC_SERVER_URL } from '../testing/sync-server'
import { Conversation } from './conversation'
import { escape } from './workbench'

/** One device with Settings → Sync and the sync indicator, found by role and label. */
export class SyncDevice extends Conversation {
  readonly indicator: Locator
  readonly settings: Locator
  readonly syncSection: Locator
  readonly projectPicker: Locator

  constructor(page: Page) {
    super(page)
    this.indicator = page.getByRole('status', { name: 'Sync', exact: true })
    this.settings = page.getByRole('dialog', { name: 'Settings' })
    this.syncSection = this.settings.getByRole('region', { name: 'Sync', exact: true })
    this.projectPicker = page.getByRole('combobox', { name: 'Project' })
  }

  async openSyncSettings(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Settings', exact: true }).click()
    await expect(this.syncSection).toBeVisible()
    return this.syncSection
  }

  async closeSettings() {
    await this.settings.getByRole('button', { name: 'Close', exact: true }).click()
    await expect(this.settings).toBeHidden()
  }

  /** Fills the server, the database and the passphrase (no credentials: the test server lets everyone in). */
  async fillServer(database: string, passphrase: string) {
    const section = this.syncSection
    await section.getByLabel('Server URL', { exact: true }).fill(SYNC_SERVER_URL)
    await section.getByLabel('Database name', { exact: true }).fill(database)
    await section.getByLabel('Sync passphrase', { exact: true }).fill(passphrase)
  }

  /** The first device: tests the connection, creates the database, turns sync on, waits for "Synced". */
  async setUpFirst(database: string, passphrase: string) {
    const section = await this.openSyncSettings()
    await this.fillServer(database, passphrase)
    await section.getByRole('button', { name: 'Test connection' }).click()
    await expect(section.getByRole('status').filter({ hasText: `The database ${database} does not exist yet` })).toBeVisible()
    await section.getByRole('button', { name: 'Create database' }).click()
    await expect(section.getByRole('status').filter({ hasText: `the database ${database} is there` })).toBeVisible()
    await section.getByRole('button', { name: 'Turn on sync' }).click()
    await expect(section.getByRole('status').filter({ hasText: 'Sync is on.' })).toBeVisible()
    await this.closeSettings()
    await expect(this.indicator).toHaveText('Synced', { timeout: 30_000 })
  }

  /** Another device: the URL, database and passphrase, then Turn on sync. */
  async join(database: string, passphrase: string, messages: 'All' | 'When a session is opened' = 'All') {
    const section = await this.openSyncSettings()
    await this.fillServer(database, passphrase)
    await section.getByRole('radio', { name: messages }).check()
    await section.getByRole('button', { name: 'Turn on sync' }).click()
  }

  async createProject(name: string) {
    await this.page.getByRole('button', { name: 'New project' }).click()
    const dialog = this.page.getByRole('dialog', { name: 'New project' })
    await dialog.getByLabel('Name', { exact: true }).fill(name)
    await dialog.getByRole('button', { name: 'Create project' }).click()
    await expect(dialog).toBeHidden()
    await expect(this.projectPicker.locator('option:checked')).toHaveText(name)
  }

  /** Switches to a project by name; it may still be on its way from the server. */
  async switchProject(name: string) {
    await expect(this.projectPicker.getByRole('option', { name, exact: true })).toHaveCount(1, { timeout: 30_000 })
    await this.projectPicker.selectOption({ label: name })
    await expect(this.projectPicker.locator('option:checked')).toHaveText(name)
  }

  async openSession(title: string) {
    await this.sessionLink(new RegExp(`^${escape(title)}\\b`)).click()
    await expect(this.main.getByRole('heading', { level: 1, name: title })).toBeVisible()
  }

  /** Sets the retry limit through the worker (test setup): a turn with no network fails at once instead of waiting. */
  async noRetries() {
    await this.page.evaluate(() => window.__tabcode!.api.setSetting({ key: 'retry.limit', value: 0 }))
  }
}
