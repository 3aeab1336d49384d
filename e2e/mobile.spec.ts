import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

/** Visible controls smaller than WCAG 2.2's 24 × 24 px target, by name. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>('button, a[href], select, input:not([type="hidden"]), [role="tab"]')) {
      const box = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue
      // Inline links inside text are exempt (WCAG 2.5.8), as are controls hidden off-screen.
      if (element.tagName === 'A' && element.closest('p, li')) continue
      if (box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) continue
      if (box.width < 24 || box.height < 24) small.push(`${element.tagName.toLowerCase()} "${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`)
    }
    return small
  })
}

test('on a 390 × 844 phone the page fits its width, the prompt bar is whole, and every control is a 24 px target', async ({ page }) => {
  test.setTimeout(60_000)
  await model.push(
    [
      toolCalls([{ id: 'plan', name: 'todowrite', args: { todos: [1, 2, 3, 4].map((n) => ({ id: `t${n}`, content: `Step ${n}`, status: 'pending', priority: 'high' })) } }]),
      streamText('Planned.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start('On a phone')
  await page.setViewportSize({ width: 390, height: 844 })
  await app.send('Plan it')
  await expect(app.replies().last()).toContainText('Planned.')
  // The panel opened with the wide window the session started in; narrowed, it is a drawer over the conversation.
  await page.getByRole('button', { name: 'Hide workspace' }).click()
  await expect(page.getByRole('complementary', { name: 'Workspace' })).toBeHidden()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  const agent = app.main.getByRole('combobox', { name: 'Agent' })
  const box = (await agent.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  // The conversation keeps most of the screen: the header and the todos take less than a third of it.
  const header = (await app.main.locator('header.session-header').boundingBox())!
  const todos = (await page.getByRole('region', { name: 'Todos' }).boundingBox())!
  expect(header.height + todos.height).toBeLessThan(844 / 3)
  expect(await smallTargets(page)).toEqual([])
})
