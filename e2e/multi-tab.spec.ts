import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'

test('a second tab sees sessions created, renamed and deleted in the first without reloading', async ({ context }) => {
  const first = new Workbench(await context.newPage())
  const second = new Workbench(await context.newPage())
  await first.open()
  await second.open()
  await expect(second.sessionLinks()).toHaveCount(0)

  await first.newSession()
  await expect(second.sessionLinks()).toHaveCount(1)
  await first.rename(/New session · /, 'Shared between tabs')
  await expect(second.sessionLink(/^Shared between tabs/)).toBeVisible()

  await second.sessions.getByRole('button', { name: 'Delete session "Shared between tabs"' }).click()
  await second.page.getByRole('dialog', { name: 'Delete session?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(first.sessionLinks()).toHaveCount(0)
  await expect(first.main.getByRole('heading', { name: 'No session open' })).toBeVisible()
})
