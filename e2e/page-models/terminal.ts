import { expect, type Locator, type Page } from '@playwright/test'
import { showWorkspace } from './workbench'

/** The Terminal tab of the workspace: the agent's log and the user's own terminals, found by role and name. */
export class TerminalTab {
  readonly workspace: Locator
  readonly region: Locator
  readonly tabs: Locator

  constructor(readonly page: Page) {
    this.workspace = page.getByRole('complementary', { name: 'Workspace' })
    this.region = this.workspace.getByRole('region', { name: 'Terminal' })
    this.tabs = this.region.getByRole('tablist', { name: 'Terminals' })
  }

  async show() {
    await showWorkspace(this.page)
    await this.workspace.getByRole('tab', { name: 'Terminal', exact: true }).click()
    await expect(this.region).toBeVisible()
  }

  /** Opens a terminal and waits for its first prompt (focus is then inside it). */
  async open(name: string): Promise<UserTerminal> {
    await this.region.getByRole('button', { name: 'New terminal' }).click()
    await expect(this.tabs.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true')
    const terminal = new UserTerminal(this.page, this.region.getByRole('group', { name, exact: true }))
    await terminal.waitForPrompt()
    return terminal
  }
}

export class UserTerminal {
  constructor(
    readonly page: Page,
    readonly screen: Locator,
  ) {}

  /** The screen's text as a screen reader gets it: xterm's accessibility tree, one list item per row. */
  async text(): Promise<string> {
    const rows = await this.screen.getByRole('listitem').allInnerTexts()
    return rows.map((row) => row.replace(/\u00a0/g, ' ').trimEnd()).join('\n').trimEnd()
  }

  /** Lines from the last prompt on, trailing blanks dropped. */
  async lastLines(count: number): Promise<string[]> {
    return (await this.text()).split('\n').slice(-count)
  }

  async waitForPrompt(cwd = '~') {
    await expect.poll(async () => (await this.text()).split('\n').at(-1)).toBe(`${cwd} $`)
  }

  async type(text: string) {
    await this.page.keyboard.type(text)
  }

  /** How many prompts the screen shows (a prompt line starts with the cwd and `$`). */
  async prompts(): Promise<number> {
    return (await this.text()).split('\n').filter((line) => /^(~|\/)\S* \$( |$)/.test(line)).length
  }

  /** Types a command line and Enter, then waits for the next prompt (one more than before, and last). */
  async run(command: string, cwd = '~') {
    const before = await this.prompts()
    await this.type(command)
    await this.page.keyboard.press('Enter')
    await expect
      .poll(async () => [await this.prompts(), (await this.text()).split('\n').at(-1)], { message: `prompt after ${command}` })
      .toEqual([before + 1, `${cwd} $`])
  }

  /** What the last command printed: the lines between its prompt line and the next prompt. */
  async outputOf(command: string): Promise<string> {
    const lines = (await this.text()).split('\n')
    const start = lines.findLastIndex((line) => line.endsWith(`$ ${command}`))
    return lines.slice(start + 1, -1).join('\n')
  }
}
