import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

const background = (page: import('@playwright/test').Page, selector: string) =>
  page.locator(selector).first().evaluate((element) => getComputedStyle(element).backgroundColor)

test('the theme button cycles system, light and dark; the choice survives a reload and native selects follow it', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' })
  const app = new Workbench(page)
  await app.open()
  await app.ready()
  const html = page.locator('html')
  await expect(html).toHaveAttribute('data-theme', 'light')
  const button = page.getByRole('button', { name: /^Theme: / })
  await expect(button).toHaveAccessibleName('Theme: System')

  await button.click()
  await expect(button).toHaveAccessibleName('Theme: Light')
  await button.click()
  await expect(button).toHaveAccessibleName('Theme: Dark')
  await expect(html).toHaveAttribute('data-theme', 'dark')
  expect(await background(page, 'body')).toBe('rgb(27, 29, 35)')
  // The project picker is a native select: dark too, not the browser's white.
  expect(await background(page, '#project-select')).toBe('rgb(27, 29, 35)')

  // Kept across a reload, and applied before the app has booted (no flash of the light theme).
  await page.reload()
  await expect(html).toHaveAttribute('data-theme', 'dark')
  await app.ready()
  await expect(page.getByRole('button', { name: 'Theme: Dark' })).toBeVisible()

  // Back to the system's: it follows the system as it changes.
  await page.getByRole('button', { name: 'Theme: Dark' }).click()
  await expect(page.getByRole('button', { name: 'Theme: System' })).toBeVisible()
  await expect(html).toHaveAttribute('data-theme', 'light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(html).toHaveAttribute('data-theme', 'dark')
})
