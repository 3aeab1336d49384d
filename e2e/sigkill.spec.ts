import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { KillableBrowser } from './testing/browser-kill'
import { chunk, ModelScript, MOCK_MODEL_SERVER_URL, stream, streamText, toolCalls } from './testing/model-script'

// Issue 13: a browser killed with SIGKILL (no unload, nothing allowed to finish) loses at most the text of one
// flush window, leaves no tool running forever, and the session answers its next prompt after a relaunch.

test.describe.configure({ timeout: 120_000 })

const model = new ModelScript()
/** One word per delta, one delta every WORD_MS: the flush window (50 ms) holds at most a few words. */
const WORD_MS = 20
const FLUSH_WINDOW_MS = 50

test.beforeEach(async () => {
  await model.reset()
})

function wordsOf(text: string): string[] {
  return text.match(/w\d{4}/g) ?? []
}

test('killed mid-stream, the reply keeps what was flushed (at most one flush window lost) and the next prompt is answered', async ({ baseURL }) => {
  const browser = await KillableBrowser.launch(baseURL!)
  try {
    let app = new Conversation(browser.page)
    await app.start('Killed mid-stream')
    const words = Array.from({ length: 3_000 }, (_, index) => `w${String(index + 1).padStart(4, '0')} `).join('')
    await model.push([stream([chunk.text(words, 6)], { chunkDelayMs: WORD_MS })], { model: 'mock-model' })
    await app.send('Count for me')
    await expect(app.replies().first()).toContainText('w0060 ')
    // What the person saw last, read just before the kill: everything older than one flush window is stored.
    const seen = wordsOf(await app.replies().first().innerText()).length
    await browser.kill()

    app = new Conversation(await browser.relaunch())
    await app.open()
    await app.sessionLink(/^Killed mid-stream/).click()
    const reply = app.replies().first()
    await expect(reply).toContainText('w0001 ')
    // Reopening closes the reply the kill left open; its text is then final.
    await app.idle()
    const kept = wordsOf(await reply.innerText())
    expect(kept, 'the kept text is the start of the reply, in order').toEqual(words.trim().split(' ').slice(0, kept.length))
    const lost = seen - kept.length
    expect(lost, `${seen} words seen, ${kept.length} kept`).toBeLessThanOrEqual(Math.ceil(FLUSH_WINDOW_MS / WORD_MS) + 1)

    await model.push([streamText('Back after the crash.')], { model: 'mock-model' })
    await app.send('Are you still there?')
    await expect(app.replies().last()).toContainText('Back after the crash.')
    expect(browser.problems).toEqual([])
  } finally {
    await browser.dispose()
  }
})

test('killed mid-tool, every tool call is finished (interrupted) after reopening and the next prompt is answered', async ({ baseURL }) => {
  const browser = await KillableBrowser.launch(baseURL!)
  try {
    let app = new Conversation(browser.page)
    await app.start('Killed mid-tool')
    // A page that never finishes loading: the tool is still running when the browser dies.
    await model.push([toolCalls([{ id: 'call_slow', name: 'webfetch', args: { url: `${MOCK_MODEL_SERVER_URL}/slow` } }])], { model: 'mock-model' })
    await app.send('Read that page')
    // A fetch asks for its host first (issue 27).
    await browser.page.getByRole('dialog', { name: /^Allow fetching from 127\.0\.0\.1:\d+\?$/ }).getByRole('button', { name: 'Allow once' }).click()
    const card = app.messages.getByRole('group', { name: /^Tool call: webfetch/ })
    await expect(card).toContainText('running')
    await expect.poll(async () => (await model.slow()).opened).toBe(1)
    await browser.kill()

    app = new Conversation(await browser.relaunch())
    await app.open()
    await app.sessionLink(/^Killed mid-tool/).click()
    const reopened = app.messages.getByRole('group', { name: /^Tool call: webfetch/ })
    await expect(reopened).toContainText('interrupted')
    await app.idle()
    const states = await app.page.evaluate(async () => {
      const hook = window.__tabcode!
      const sessions = await hook.api.listSessions({ roots: false, archived: true, limit: 50 })
      const session = sessions.items.find((item) => item.title === 'Killed mid-tool')!
      const page = await hook.api.pageMessages({ sessionID: session.id, limit: 50 })
      return page.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool' ? [part.state.status] : [])))
    })
    expect(states).toEqual(['error'])

    await model.push([streamText('Skipping that page, then.')], { model: 'mock-model' })
    await app.send('Never mind')
    await expect(app.replies().last()).toContainText('Skipping that page, then.')
    expect(browser.problems).toEqual([])
  } finally {
    await browser.dispose()
  }
})
