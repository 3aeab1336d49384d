import { expect, type Locator, type Page } from '@playwright/test'

/** The MCP servers in Settings, as a person uses them: found by role and label only. */
export class McpSettings {
  readonly dialog: Locator

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Settings' })
  }

  async open(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Settings' }).click()
    return this.dialog
  }

  async close(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Close', exact: true }).click()
    await expect(this.dialog).toHaveCount(0)
  }

  /** Fills and saves the new-server form in the open Settings; returns the form (gone once saved). */
  async saveServer(name: string, url: string): Promise<Locator> {
    await this.dialog.getByRole('button', { name: 'Add MCP server' }).click()
    const form = this.dialog.getByRole('form', { name: 'New MCP server' })
    await form.getByRole('textbox', { name: 'Server name' }).fill(name)
    await form.getByRole('textbox', { name: 'Server URL' }).fill(url)
    await form.getByRole('button', { name: 'Save server' }).click()
    return form
  }

  /** Opens Settings and adds a server; returns its row once the form is gone. The dialog is left open. */
  async addServer(name: string, url: string): Promise<Locator> {
    await this.open()
    const form = await this.saveServer(name, url)
    await expect(form).toHaveCount(0)
    return this.server(name)
  }

  server(name: string): Locator {
    return this.dialog.getByRole('listitem', { name: `MCP server ${name}` })
  }
}
