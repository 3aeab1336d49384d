import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
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

/** A dialog is checked once it has finished opening: while it fades in, axe cannot tell its colours. */
async function settled(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible()
  await dialog.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)))
}

// Axe checks only what is on screen: text a scroll container clips is skipped, so at the usual height most of a
// session went unchecked. A page this tall shows the whole seeded conversation and every panel at once.
test.use({ viewport: { width: 1280, height: 4000 } })

for (const scheme of ['light', 'dark'] as const) {
  test(`every view has no serious or critical accessibility violations in the ${scheme} theme`, async ({ page }) => {
    // Ten full axe runs over a tall page: 20–40 s on a quiet machine, more beside other work.
    test.setTimeout(180_000)
    await page.emulateMedia({ colorScheme: scheme })
    const app = new Workbench(page)
    const found: Record<string, string[]> = {}
    const check = async (view: string) => {
      found[view] = await seriousViolations(page)
    }
    await app.open()
    await app.ready()
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    await check('the empty workbench')

    await app.seed((projectID) => everyPartTypeFixture({ projectID }))
    await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
    await expect(app.messages).toContainText(T.userText)
    // Highlighted code (a comment among its tokens) and the aside the model never saw are the quietest text there is.
    await expect(app.messages.locator('.tok-comment').first()).toBeInViewport()
    await expect(app.messages.getByText(T.ignoredText)).toBeInViewport()
    await check('a session with every part type')

    await app.sessions.getByRole('searchbox', { name: 'Search sessions' }).fill(T.assistantHeading.split(' ')[0]!)
    await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first()).toBeVisible()
    await check('search results')
    await app.sessions.getByRole('searchbox', { name: 'Search sessions' }).fill('')

    const panel = page.getByRole('complementary', { name: 'Workspace' })
    await showWorkspace(page)
    for (const name of ['Files', 'Terminal', 'Changes', 'Preview']) {
      const tab = panel.getByRole('tab', { name: new RegExp(`^${name}`) })
      await tab.click()
      await expect(tab).toHaveAttribute('aria-selected', 'true')
      await check(`the ${name} panel`)
    }

    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = page.getByRole('dialog', { name: 'Settings' })
    await settled(settings)
    await check('the settings dialog')
    await page.keyboard.press('Escape')
    await expect(settings).toBeHidden()

    await page.getByRole('button', { name: /^Share/ }).first().click()
    const share = page.getByRole('dialog', { name: 'Share session' })
    await settled(share)
    await check('the share dialog')
    await page.keyboard.press('Escape')
    await expect(share).toBeHidden()

    await page.getByRole('button', { name: 'New project', exact: true }).click()
    const project = page.getByRole('dialog', { name: 'New project' })
    await settled(project)
    await check('the new project dialog')
    await page.keyboard.press('Escape')
    await expect(project).toBeHidden()

    // The seeded session's replies carry cost and tokens: the usage view shows its table.
    await page.getByRole('button', { name: 'Usage', exact: true }).click()
    const usage = page.getByRole('dialog', { name: 'Usage' })
    await settled(usage)
    await expect(usage.getByRole('table')).toBeVisible()
    await check('the usage view')

    expect(Object.fromEntries(Object.entries(found).filter(([, lines]) => lines.length > 0))).toEqual({})
  })
}
