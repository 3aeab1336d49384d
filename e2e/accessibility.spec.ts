import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './testing/fixtures-data'
import { showWorkspace } from './page-models/workbench'

/** What axe finds serious or critical on the page as it is now, one line each, so a failure reads as a list. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${node.failureSummary?.split('\n')[1]?.trim() ?? ''})`))
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the main views have no serious or critical accessibility violations in the ${scheme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme })
    const app = new Workbench(page)
    await app.open()
    await app.ready()
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    expect(await seriousViolations(page), 'the empty workbench').toEqual([])

    await app.seed((projectID) => everyPartTypeFixture({ projectID }))
    await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
    await expect(app.messages).toContainText(T.userText)
    expect(await seriousViolations(page), 'a session with every part type').toEqual([])

    const panel = page.getByRole('complementary', { name: 'Workspace' })
    await showWorkspace(page)
    await panel.getByRole('tab', { name: 'Files', exact: true }).click()
    await expect(panel.getByRole('button', { name: 'New file', exact: true })).toBeVisible()
    expect(await seriousViolations(page), 'the files panel').toEqual([])

    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
    expect(await seriousViolations(page), 'the settings dialog').toEqual([])
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click()

    // The seeded session's replies carry cost and tokens: the usage view shows its table.
    await page.getByRole('button', { name: 'Usage', exact: true }).click()
    await expect(page.getByRole('dialog', { name: 'Usage' }).getByRole('table')).toBeVisible()
    expect(await seriousViolations(page), 'the usage view').toEqual([])
  })
}
