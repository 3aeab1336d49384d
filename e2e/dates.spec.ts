import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

// The same steps in two locales: dates on screen follow the browser's locale (issue 33), in the form a user of it reads.
const LOCALES = [
  { locale: 'en-US', form: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/ },
  { locale: 'de-DE', form: /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/ },
]

for (const { locale, form } of LOCALES) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale, timezoneId: 'Europe/Berlin' })

    test(`a new session's created time, default title and tooltip read as ${locale} writes dates`, async ({ page }) => {
      const app = new Workbench(page)
      await app.open()
      await app.newSession()

      const created = app.main.locator('.session-facts time')
      const when = await created.getAttribute('datetime')
      expect(when).not.toBeNull()
      // What the browser itself writes for this moment in this locale and zone: the app must show exactly that.
      const expected = await page.evaluate((iso) => new Intl.DateTimeFormat(navigator.language, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(iso)), when!)
      expect(expected).toMatch(form)
      await expect(created).toHaveText(expected)
      await expect(app.main.getByRole('heading', { level: 1 })).toHaveText(`New session · ${expected}`)
      await expect(app.sessionLink(`New session · ${expected}`)).toBeVisible()
      await expect(app.sessions.locator(`time[datetime="${when}"]`)).toHaveAttribute('title', expected)
    })
  })
}
