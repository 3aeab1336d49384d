import { expect, test } from './testing/fixtures'
import { Conversation } from '../page-models/conversation'
import { Sharing } from '../page-models/share'
import { KillableBrowser } from '../testing/browser-kill'
import { chunk, ModelScript, stream, streamText, type RecordedRequest } from '../testing/model-script'
import { slowStorageOpen } from '../testing/slow-storage-open'
import { storedRows } from '../testing/stored-rows'
import { richTranscript } from '../../src/share/testing/rich-transcript'

// Issue 27, "nothing the user does is lost": a crash is followed by a launch that opens, a quick second prompt is
// answered after the first, and a prompt that joined a turn is answered after the tab reloads.

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

/** A tabcode session file with `files` workspace files of about `size` characters each. */
function sessionFile(files: number, size: number, tag: string): { name: string; buffer: Buffer } {
  const workspace = Array.from({ length: files }, (_, index) => ({
    path: `src/module${index % 40}/file${index}.ts`,
    text: `export const value${index} = ${index}\n${`// ${tag}: line of file ${index}, padded to a realistic width\n`.repeat(Math.ceil(size / 60))}`,
  }))
  const document = { format: 'tabcode-session', version: 1, exported: { time: Date.now(), app: 'e2e' }, session: richTranscript(), files: workspace }
  return { name: 'session.tabcode.json', buffer: Buffer.from(JSON.stringify(document)) }
}

/** The text of the newest user message each request to the conversation's model sent. */
function lastPrompts(requests: RecordedRequest[]): string[] {
  return requests
    .filter((request) => request.model === 'mock-model')
    .map((request) => {
      const content = request.body?.messages.filter((message) => message.role === 'user').at(-1)?.content
      return (typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('')).trim()
    })
}

test('a browser killed during a 20 MB import opens again, saying it is opening the data, with no error screen and nothing lost', async ({ baseURL }) => {
  test.setTimeout(180_000)
  const browser = await KillableBrowser.launch(baseURL!)
  try {
    let app = new Sharing(browser.page)
    await app.open()
    await app.importFile(sessionFile(3, 2_000, 'kept'))
    await expect(app.status('Imported a session (read-only)')).toBeVisible()
    const before = await storedRows(app.page)

    const large = sessionFile(420, 50_000, 'killed')
    expect(large.buffer.length).toBeGreaterThan(20_000_000)
    await app.importFile(large)
    // The import holds its Web Lock while it reads and writes: the browser dies in the middle of it.
    await expect
      .poll(() => app.page.evaluate(async () => !!(await navigator.locks.query()).held?.some((lock) => lock.name === 'tabcode:import')), {
        intervals: [5],
        timeout: 60_000,
      })
      .toBe(true)
    await browser.kill()

    const page = await browser.relaunch()
    // Chromium then took ~6 s to reopen the storage; here it varies, so the open is made to take that long.
    await slowStorageOpen(page, 6_000)
    app = new Sharing(page)
    await page.goto('/')
    await expect(page.getByRole('status').filter({ hasText: 'Opening your data…' })).toBeVisible()
    await app.ready()
    await expect(page.getByRole('heading', { name: "tabcode can't open its storage" })).toHaveCount(0)
    await expect(app.sessionLink(/^Fix the flaky upload test/)).toBeVisible()
    const after = await storedRows(page)
    // What was stored before is all there, and nothing of the import the kill cut short.
    for (const store of ['projects', 'files', 'blobs', 'sessions', 'messages', 'parts']) expect(after.digest[store], store).toBe(before.digest[store])
    expect(browser.problems).toEqual([])
  } finally {
    await browser.dispose()
  }
})

test('two prompts sent 0 to 50 ms apart in one tab are both answered, in order', async ({ page }) => {
  test.setTimeout(150_000)
  const app = new Conversation(page)
  await app.start()
  for (const gap of [0, 10, 25, 50]) {
    await model.push([streamText(`First answer (${gap} ms).`), streamText(`Second answer (${gap} ms).`)], { model: 'mock-model' })
    await app.newSession()
    // Typed and sent as fast as a person who knows what they want: the second Enter comes while the first prompt
    // is still being stored (it takes tens of milliseconds).
    await app.prompt.evaluate(async (box: HTMLTextAreaElement, gap) => {
      const type = (text: string) => {
        box.value += text
        box.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }))
      }
      const enter = () => box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }))
      type(`What is one? (${gap} ms)`)
      enter()
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap))
      type(` What is two? (${gap} ms)`)
      enter()
    }, gap)
    await expect(app.replies()).toHaveText([new RegExp(`First answer \\(${gap} ms\\)\\.`), new RegExp(`Second answer \\(${gap} ms\\)\\.`)], { timeout: 30_000 })
    await expect(app.prompts()).toHaveText([new RegExp(`What is one\\? \\(${gap} ms\\)`), new RegExp(`What is two\\? \\(${gap} ms\\)`)])
    await expect(app.prompt).toHaveValue('')
    await app.idle()
  }
  expect(lastPrompts(await model.requests())).toEqual([0, 10, 25, 50].flatMap((gap) => [`What is one? (${gap} ms)`, `What is two? (${gap} ms)`]))
})

test('a prompt that joined a running turn is answered after the tab reloads before the turn reached it', async ({ page }) => {
  test.setTimeout(120_000)
  // A first reply slow enough (~27 s at the server's pace) for the reload to come in the middle of it.
  const slowReply = stream([chunk.text(`Started. ${Array.from({ length: 80 }, (_, index) => `w${index}`).join(' ')}`, 1)], { chunkDelayMs: 80 })
  await model.push([slowReply, streamText('Answer to the joined prompt.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Joined, then reloaded')
  await app.send('long task')
  await expect(app.replies().first()).toContainText('Started.')
  // Sent while the agent works: it joins the turn, to be answered at its next step.
  await app.send('also check the tests')
  await expect(app.prompts().last()).toContainText('also check the tests')

  await page.reload()
  await app.ready()
  await app.sessionLink(/^Joined, then reloaded/).click()
  await expect(app.replies().last()).toContainText('Answer to the joined prompt.', { timeout: 30_000 })
  await app.idle()
  expect(lastPrompts(await model.requests())).toEqual(['long task', 'also check the tests'])
})

test('a prompt that joined a turn the user then stopped says it has no answer, and is answered on request', async ({ page }) => {
  test.setTimeout(120_000)
  const slowReply = stream([chunk.text(`Started. ${Array.from({ length: 80 }, (_, index) => `w${index}`).join(' ')}`, 1)], { chunkDelayMs: 80 })
  await model.push([slowReply, streamText('Answer after all.')], { model: 'mock-model' })
  const app = new Conversation(page)
  await app.start('Joined, then stopped')
  await app.send('long task')
  await expect(app.replies().first()).toContainText('Started.')
  await app.send('and this too')
  await expect(app.prompts().last()).toContainText('and this too')
  // Stop ends the turn the prompt joined: it is not run behind the user's back, but it is not left silent either.
  await app.stopButton().click()
  await app.idle()
  const notice = page.getByRole('status').filter({ hasText: 'Your last prompt has not been answered' })
  await expect(notice).toBeVisible()
  await notice.getByRole('button', { name: 'Answer it now' }).click()
  await expect(app.replies().last()).toContainText('Answer after all.')
  await expect(notice).toHaveCount(0)
  expect(lastPrompts(await model.requests())).toEqual(['long task', 'and this too'])
})
