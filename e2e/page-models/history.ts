import { expect, type Locator } from '@playwright/test'
import { Conversation } from './conversation'
import { escape } from './workbench'

export type RevertKind = 'Revert conversation' | 'Revert conversation and files'

/**
 * The history operations of a session as a person uses them: compaction and what the
 * model sees, branching, revert and unrevert. Setup that has no UI of its own (model limits, reading a project's
 * files) goes through the test hook.
 */
export class History extends Conversation {
  // ── setup through the test hook ─────────────────────────────────────────────────────────────────────────────

  /** Gives the scripted provider's main model a smaller context window, so a few scripted usage numbers overflow it. */
  async limitContext(context: number, output = 1_024) {
    await this.page.evaluate(
      async ({ context, output }) => {
        const api = window.__tabcode!.api
        const provider = (await api.listProviders()).find((entry) => entry.name === 'Mock server')
        if (!provider) throw new Error('the mock provider is not connected')
        const models = provider.models.map((model) => (model.id === 'mock-model' ? { ...model, limit: { context, output } } : model))
        // No apiKey: the stored key stays.
        await api.saveProvider({ id: provider.id, type: provider.type, name: provider.name, baseURL: provider.baseURL, models })
      },
      { context, output },
    )
  }

  async providerID(): Promise<string> {
    return this.page.evaluate(async () => {
      const provider = (await window.__tabcode!.api.listProviders()).find((entry) => entry.name === 'Mock server')
      if (!provider) throw new Error('the mock provider is not connected')
      return provider.id
    })
  }

  /** The project whose name the project picker shows as chosen. */
  projectPicker(): Locator {
    return this.page.getByRole('combobox', { name: 'Project' })
  }

  async projectName(): Promise<string> {
    return (await this.projectPicker().locator('option:checked').textContent())?.trim() ?? ''
  }

  async projectIDNamed(name: string): Promise<string> {
    return this.page.evaluate(async (name) => {
      const project = (await window.__tabcode!.api.listProjects()).find((entry) => entry.name === name)
      if (!project) throw new Error(`no project named "${name}"`)
      return project.id
    }, name)
  }

  /** A file's text in a project (the one the sidebar lists by default), or null when it does not exist. */
  async fileText(path: string, projectID?: string): Promise<string | null> {
    return this.page.evaluate(
      async ({ path, projectID }) => {
        const hook = window.__tabcode!
        try {
          const file = await hook.api.readFile({ projectID: projectID ?? hook.projectID, path })
          return file.type === 'text' ? file.text : `<binary ${file.size} bytes>`
        } catch (error) {
          if (error instanceof Error && /not ?found|no such|ENOENT|does not exist/i.test(`${error.name} ${error.message}`)) return null
          throw error
        }
      },
      { path, projectID },
    )
  }

  // ── messages and their actions ──────────────────────────────────────────────────────────────────────────────

  userMessage(text: string): Locator {
    return this.prompts().filter({ hasText: text })
  }

  reply(text: string): Locator {
    return this.replies().filter({ hasText: text })
  }

  /** Opens a message's "Message actions" menu and picks `item`. */
  async messageAction(message: Locator, item: 'Branch from here' | 'Copy' | 'Edit and resend' | 'Regenerate' | RevertKind) {
    await expect(message).toHaveCount(1)
    await message.hover()
    await message.getByRole('button', { name: 'Message actions' }).click()
    await this.page.getByRole('menu').getByRole('menuitem', { name: item, exact: true }).click()
  }

  async branchFrom(message: Locator) {
    await this.messageAction(message, 'Branch from here')
  }

  /** Opens the revert confirmation for `message` and returns the dialog (not yet confirmed). */
  async askRevert(message: Locator, kind: RevertKind): Promise<Locator> {
    await this.messageAction(message, kind)
    const dialog = this.page.getByRole('dialog', { name: kind })
    await expect(dialog).toBeVisible()
    return dialog
  }

  async revert(message: Locator, kind: RevertKind): Promise<Locator> {
    const dialog = await this.askRevert(message, kind)
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click()
    await expect(dialog).toBeHidden()
    await expect(this.revertedNotice()).toBeVisible()
    return dialog
  }

  /** The "Reverted" notice with its counts and the Unrevert button. */
  revertedNotice(): Locator {
    return this.page.getByRole('region', { name: 'Reverted' }).or(this.page.getByRole('status', { name: 'Reverted' }))
  }

  async unrevert() {
    await this.revertedNotice().getByRole('button', { name: 'Unrevert' }).click()
    await expect(this.revertedNotice()).toHaveCount(0)
  }

  /** The "Branched into “<title>”" notice. */
  branchedNotice(): Locator {
    return this.page.getByRole('status').filter({ hasText: /Branched into/ })
  }

  heading(): Locator {
    return this.main.getByRole('heading', { level: 1 })
  }

  // ── compaction ──────────────────────────────────────────────────────────────────────────────────────────────

  compactNowButton(): Locator {
    return this.page.getByRole('button', { name: 'Compact now' })
  }

  async compactNow() {
    await expect(this.compactNowButton()).toBeEnabled()
    await this.compactNowButton().click()
  }

  /** The divider where the conversation was compacted. */
  divider(): Locator {
    const name = /^Conversation compacted/
    return this.messages
      .getByRole('group', { name })
      .or(this.messages.getByRole('region', { name }))
      .or(this.messages.getByRole('separator', { name }))
  }

  undoCompactionButton(): Locator {
    return this.messages.getByRole('button', { name: 'Undo compaction' })
  }

  /** The summary card (an article or region named "Summary…"). */
  summary(): Locator {
    const name = /^Summary/
    return this.messages.getByRole('article', { name }).or(this.messages.getByRole('region', { name })).first()
  }

  /** Opens "What the model sees" and returns its dialog. */
  async modelView(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'What the model sees' }).click()
    const dialog = this.page.getByRole('dialog', { name: 'What the model sees' })
    await expect(dialog).toBeVisible()
    return dialog
  }

  /** A tool call card by its tool and a text it shows (its input path, say). */
  toolCall(tool: string, text: string): Locator {
    return this.messages.getByRole('group', { name: new RegExp(`^Tool call: ${escape(tool)}`) }).filter({ hasText: text })
  }
}
